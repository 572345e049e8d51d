# Installs Debian packages rubyrig needs: checks with dpkg-query, installs with apt-get when running as
# root, and otherwise says exactly which command to run.
module Rubyrig
  class Apt
    def initialize(io:, uid: Process.uid, env: ENV.to_h)
      @io = io
      @uid = uid
      @env = env
    end

    def missing(packages)
      packages.reject { |pkg| installed?(pkg) }
    end

    def installed?(package)
      return false unless Which.find("dpkg-query", path: @env.fetch("PATH", ""))
      out, _err, exit = Child.capture(["dpkg-query", "-W", "-f", "${Status}", package], timeout_s: 30)
      exit.success? && out.include?("install ok installed")
    end

    # Makes sure every package is installed; why: a short reason shown to the user.
    def ensure!(packages, why:)
      needed = missing(packages)
      return if needed.empty?
      command = ["apt-get", "install", "-y", "--no-install-recommends", *needed]
      unless @uid.zero?
        raise ToolMissing, "#{why} needs the Debian packages #{needed.join(", ")}: run `sudo #{command.join(" ")}`"
      end
      @io.puts("Installing #{needed.join(", ")} (#{why})...")
      install(command)
    end

    private

    def install(command)
      env = {"DEBIAN_FRONTEND" => "noninteractive"}
      _out, _err, exit = Child.capture(command, env: env, timeout_s: 1800)
      return if exit.success?
      # The package lists may be stale or absent on a fresh machine: refresh them once and retry.
      Child.capture(%w[apt-get update], env: env, timeout_s: 600)
      _out, err, exit = Child.capture(command, env: env, timeout_s: 1800)
      return if exit.success?
      raise ToolMissing, "`#{command.join(" ")}` failed: #{err.lines.last.to_s.strip}; run it by hand to see why"
    end
  end
end
