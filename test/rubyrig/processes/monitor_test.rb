# The Monitor's reading of a process tree from a /proc-shaped directory, with no process started.
require "test_helper"
require "minitest/mock"

class MonitorTreeTest < Minitest::Test
  include RubyrigTest

  def fake_proc(tree)
    dir = tmpdir
    tree.each do |pid, kids|
      FileUtils.mkdir_p("#{dir}/#{pid}/task/#{pid}")
      File.write("#{dir}/#{pid}/task/#{pid}/children", kids.join(" "))
    end
    dir
  end

  def test_the_tree_follows_the_children_files
    dir = fake_proc({10 => [11, 12], 11 => [13], 12 => [], 13 => []})
    assert_equal [10, 11, 12, 13], Rubyrig::Processes::Monitor.new(10, proc_dir: dir).tree
  end

  # A process that exits while its task list is read makes the kernel answer ESRCH, which Ruby's
  # Dir.glob raises: the sampling thread must take it as "no children", not end (CI saw it end).
  def test_a_process_that_exits_while_its_tasks_are_read_has_no_children
    dir = fake_proc({10 => [11], 11 => []})
    monitor = Rubyrig::Processes::Monitor.new(10, proc_dir: dir)
    Dir.stub(:glob, ->(*) { raise Errno::ESRCH, "#{dir}/10/task" }) do
      assert_equal [10], monitor.tree
    end
  end
end
