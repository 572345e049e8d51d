require "test_helper"

# Which processes the watchdog kills for the process groups rubyrig named, from a table of
# /proc's facts (pid => [parent pid, group, start ticks]): pure logic, no process involved.
class SweepTest < Minitest::Test
  Sweep = Rubyrig::Processes::Sweep

  # Group 100 (leader started at tick 5): its leader, a member, a child in a session of its own and
  # that child's child; beside it, an unrelated tree under pid 1.
  TABLE = {
    1 => [0, 1, 0],
    100 => [50, 100, 5],
    101 => [100, 100, 6],
    102 => [101, 102, 7],
    103 => [102, 102, 8],
    200 => [1, 200, 9],
    201 => [200, 200, 10]
  }.freeze

  def test_a_named_groups_members_and_every_descendant_whatever_its_group
    members = Sweep.in_groups(TABLE, {100 => 5})
    assert_equal [100, 101], members.sort
    assert_equal [100, 101, 102, 103], Sweep.descendants(TABLE, members).sort
  end

  def test_a_group_whose_leader_is_gone_still_counts_its_members
    table = TABLE.except(100)
    assert_equal [101], Sweep.in_groups(table, {100 => 5})
  end

  def test_a_group_number_that_now_leads_a_process_started_at_another_time_is_left_alone
    assert_empty Sweep.in_groups(TABLE, {100 => 4})
    assert_empty Sweep.in_groups(TABLE, {300 => 5}), "no process in the group"
  end
end
