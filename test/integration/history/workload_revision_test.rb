# The revision of a workload's code, read with the real git: the commit checked out and whether the
# work tree had changes, or nil outside a work tree.
require "test_helper"

class WorkloadRevisionTest < Minitest::Test
  include RubyrigTest

  def git(dir, *args)
    system("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", *args, out: File::NULL, err: File::NULL) or flunk("git #{args.join(" ")}")
  end

  def test_the_commit_and_the_dirty_flag_of_the_workloads_folder
    repo = tmpdir
    script = File.join(repo, "bench", "bench.rb")
    FileUtils.mkdir_p(File.dirname(script))
    File.write(script, "x = 1\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    head = `git -C #{repo} rev-parse HEAD`.strip
    assert_equal({"commit" => head, "dirty" => false}, Rubyrig::Results::WorkloadRevision.of(script, nil))
    File.write(script, "x = 2\n")
    assert_equal({"commit" => head, "dirty" => true}, Rubyrig::Results::WorkloadRevision.of(script, nil))
    assert_equal({"commit" => head, "dirty" => true}, Rubyrig::Results::WorkloadRevision.of(%w[ruby -e 1], File.dirname(script)),
      "a command's argv has no folder: the experiment's is used")
  end

  def test_no_revision_outside_a_work_tree_or_before_the_first_commit
    plain = tmpdir
    assert_nil Rubyrig::Results::WorkloadRevision.of(File.join(plain, "missing.rb"), plain)
    git(plain, "init", "-q")
    assert_nil Rubyrig::Results::WorkloadRevision.of(plain, nil)
  end
end
