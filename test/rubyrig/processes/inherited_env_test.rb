require "test_helper"

class InheritedEnvTest < Minitest::Test
  ENV_OF_A_USER = {
    "PATH" => "/usr/bin", "HOME" => "/home/u", "USER" => "u", "LOGNAME" => "u", "LANG" => "C.UTF-8", "LC_ALL" => "C.UTF-8",
    "LC_TIME" => "en_GB.UTF-8", "TZ" => "UTC", "TMPDIR" => "/tmp", "LD_LIBRARY_PATH" => "/opt/lib", "JAVA_HOME" => "/usr/lib/jvm/x",
    "AWS_SECRET_ACCESS_KEY" => "s", "AWS_REGION" => "eu", "GITHUB_TOKEN" => "t", "DATABASE_URL" => "postgres://u:p@h/db",
    "SSH_AUTH_SOCK" => "/tmp/ssh", "JAVA_TOOL_OPTIONS" => "-Xmx1g", "RUBYRIG_HOST_ID" => "h", "TERM" => "xterm"
  }.freeze

  def test_only_the_allow_list_is_passed_on
    withheld = Rubyrig::Processes::InheritedEnv.withheld(from: ENV_OF_A_USER)
    assert_equal %w[AWS_REGION AWS_SECRET_ACCESS_KEY DATABASE_URL GITHUB_TOKEN JAVA_TOOL_OPTIONS RUBYRIG_HOST_ID SSH_AUTH_SOCK TERM],
      withheld.keys.sort
    assert(withheld.values.all?(&:nil?), "withheld means unset in the child")
  end

  def test_an_experiment_passes_names_and_prefixes_on
    withheld = Rubyrig::Processes::InheritedEnv.withheld(%w[DATABASE_URL AWS_*], from: ENV_OF_A_USER)
    assert_equal %w[GITHUB_TOKEN JAVA_TOOL_OPTIONS RUBYRIG_HOST_ID SSH_AUTH_SOCK TERM], withheld.keys.sort
  end
end
