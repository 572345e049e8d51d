# Installs Debian packages rubyrig needs: checks what dpkg has installed (a package counts when it or
# something providing it is installed), installs the rest with apt-get when running as root, and
# otherwise says exactly which command to run.
require "set"

module Rubyrig
  class Apt
    STATUS_FORMAT = "${db:Status-Abbrev}\t${Package}\t${Provides}\n"

    def initialize(io:, uid: Process.uid, env: ENV.to_h)
      @io = io
      @uid = uid
      @env = env
    end

    def missing(packages)
      packages.reject { |pkg| installed?(pkg) }
    end

    def installed?(package) = installed_names.include?(package)

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
      @installed_names = nil
    end

    private

    # Names of installed packages and of the virtual packages they provide, from one dpkg-query call.
    def installed_names
      @installed_names ||= begin
        out = ""
        if Processes::Which.find("dpkg-query", path: @env.fetch("PATH", ""))
          out, _err, exit = Processes::Child.capture(["dpkg-query", "-W", "-f", STATUS_FORMAT], timeout_s: 60)
          out = "" unless exit.success?
        end
        out.each_line.each_with_object(Set.new) do |line, names|
          status, package, provides = line.chomp.split("\t", 3)
          next unless status.to_s.start_with?("ii")
          names << package.sub(/:.*/, "")
          provides.to_s.split(",").each { |p| names << p.strip.sub(/\s.*/, "") }
        end
      end
    end

    def install(command)
      env = {"DEBIAN_FRONTEND" => "noninteractive"}
      _out, _err, exit = Processes::Child.capture(command, env: env, timeout_s: 1800)
      return if exit.success?
      # The package lists may be stale or absent on a fresh machine: refresh them once and retry.
      Processes::Child.capture(%w[apt-get update], env: env, timeout_s: 600)
      _out, err, exit = Processes::Child.capture(command, env: env, timeout_s: 1800)
      return if exit.success?
      raise ToolMissing, "`#{command.join(" ")}` failed: #{err.lines.last.to_s.strip}; run it by hand to see why"
    end
  end
end
