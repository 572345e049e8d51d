# Checks what a trustworthy benchmark needs on this host: tools, interpreters, CPU frequency settings,
# load, and how rubyrig keeps its processes within reach. Each check is a line with its state and, when something is wrong, what to do about it.
module Rubyrig
  class Doctor
    # One finding: state is :ok, :warn or :missing; fix says what to do (nil when ok).
    Check = Struct.new(:group, :name, :state, :detail, :fix, keyword_init: true)

    # tool => [why rubyrig uses it, Debian package]
    TOOLS = {
      "hyperfine" => ["bench/overhead compares rubyrig with it", "hyperfine"],
      "wrk" => ["load generator of http workloads", "wrk"],
      "httperf" => ["load generator of client-close http cells", "httperf"],
      "redis-server" => ["queue of jobs workloads", "redis-server"],
      "gcc" => ["building CRuby (rubyrig build)", "build-essential"],
      "make" => ["building CRuby (rubyrig build)", "build-essential"],
      "rustc" => ["YJIT in CRuby 3.2+ builds", "rustc"],
      "apt-get" => ["fetching Debian's Ruby sources for rubyrig build", "apt"]
    }.freeze

    # containment: how this rubyrig keeps its processes within reach (default: its own).
    def initialize(settings:, catalog:, host: Processes::Host.new, containment: nil)
      @settings = settings
      @catalog = catalog
      @host = host
      @containment = containment
    end

    def checks
      tool_checks + [jemalloc_check] + interpreter_checks + host_checks + [containment_check]
    end

    private

    def path = @settings.env.fetch("PATH", "")

    def tool_checks
      TOOLS.map do |tool, (why, package)|
        found = Processes::Which.find(tool, path: path) || (tool == "rustc" && Processes::Which.find(tool, path: File.join(@settings.env.fetch("HOME", Dir.home), ".cargo", "bin")))
        if found
          Check.new(group: "tools", name: tool, state: :ok, detail: found)
        else
          Check.new(group: "tools", name: tool, state: :missing, detail: "not found; #{why}", fix: "apt-get install #{package}")
        end
      end
    end

    def jemalloc_check
      jemalloc = @settings.jemalloc
      if jemalloc.path
        Check.new(group: "tools", name: "libjemalloc", state: :ok, detail: jemalloc.path)
      else
        Check.new(group: "tools", name: "libjemalloc", state: :missing, detail: "+jemalloc cannot run", fix: jemalloc.problem)
      end
    end

    def interpreter_checks
      found = @catalog.interpreters
      checks = found.map do |i|
        detail = "#{i.engine} #{i.version} at #{i.path}#{", YJIT" if i.yjit}#{", jemalloc linked" if i.jemalloc_linked}"
        Check.new(group: "interpreters", name: i.name, state: :ok, detail: detail)
      end
      versions = found.select(&:cruby?).map(&:version).uniq
      if versions.size < 2
        checks << Check.new(group: "interpreters", name: "second CRuby", state: :warn,
          detail: "only #{versions.join(", ")} found; comparing versions needs another",
          fix: "rubyrig build 3.3.8")
      end
      checks
    end

    def host_checks
      facts = @host.facts
      load = facts["load_average"]
      [
        governor_check(facts["governor"]),
        turbo_check(facts["turbo"]),
        Check.new(group: "host", name: "cpus", state: (facts["cores"] >= 2) ? :ok : :warn,
          detail: "#{facts["cores"]} × #{facts["cpu_model"]}",
          fix: (facts["cores"] >= 2) ? nil : "http workloads want separate CPUs for server and load generator"),
        Check.new(group: "host", name: "load", state: @host.busy?(load) ? :warn : :ok,
          detail: format("%.2f %.2f %.2f (1, 5, 15 min)", *load),
          fix: @host.busy?(load) ? "stop other work or wait; a busy host makes timings noisy" : nil)
      ]
    end

    # Whether a kill -9 of rubyrig takes every process of its run along, and by which mechanism: a
    # cgroup holds everything; without one, the watchdog's process groups with their descendants and
    # the environment marker hold everything but a daemon that also rewrites its environment.
    def containment_check
      containment = @containment || Processes::Containment.current
      if containment.cgroup
        Check.new(group: "host", name: "containment", state: :ok,
          detail: "#{containment.mechanism}: every process of a run ends with rubyrig, kill -9 included")
      else
        Check.new(group: "host", name: "containment", state: :ok,
          detail: "#{containment.mechanism} (no cgroup v2 that rubyrig may create cgroups in): every process of a run ends with rubyrig, kill -9 included, " \
            "unless it leaves both its parent and its process group (a daemon's double fork) and rewrites its environment; " \
            "a cgroup holds even that: systemd-run --user --scope -p Delegate=yes rubyrig ...")
      end
    end

    def governor_check(governor)
      case governor
      when "performance" then Check.new(group: "host", name: "governor", state: :ok, detail: governor)
      when "unavailable"
        Check.new(group: "host", name: "governor", state: :warn, detail: "not exposed (virtual machine?); frequency scaling cannot be checked",
          fix: "compare runtimes within one run only; rubyrig interleaves batches for this")
      else
        Check.new(group: "host", name: "governor", state: :warn, detail: governor,
          fix: "cpupower frequency-set -g performance")
      end
    end

    def turbo_check(turbo)
      case turbo
      when "off" then Check.new(group: "host", name: "turbo", state: :ok, detail: "off")
      when "on" then Check.new(group: "host", name: "turbo", state: :warn, detail: "on: clock speed varies with temperature",
        fix: "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo")
      else Check.new(group: "host", name: "turbo", state: :warn, detail: "not exposed; cannot be checked")
      end
    end
  end
end
