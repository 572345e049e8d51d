# Configuration injected from the CLI into the library: where caches and results live, output
# streams, colour, pinning, debug, the host id trials are recorded under and the report's sections
# (a registry of Analysis::Sections; nil: the default). Nothing in lib/ reads ENV for these directly.
module Rubyrig
  Settings = Struct.new(:cache_dir, :results_root, :out, :err, :color, :tty, :debug, :env,
    :jemalloc, :server_cpus, :load_cpus, :host_id, :sections, keyword_init: true) do
    def self.from_env(env, out: $stdout, err: $stderr, sections: nil)
      home = env.fetch("HOME", Dir.home)
      cache = env["RUBYRIG_CACHE_DIR"] || File.join(env.fetch("XDG_CACHE_HOME", File.join(home, ".cache")), "rubyrig")
      new(
        cache_dir: cache,
        results_root: File.join(Dir.pwd, "rubyrig-results"),
        out: out, err: err,
        color: out.tty? && !env.key?("NO_COLOR"),
        tty: err.tty?,
        debug: false, env: env,
        jemalloc: Runtimes::Jemalloc.new(override: env["RUBYRIG_JEMALLOC"]),
        host_id: env["RUBYRIG_HOST_ID"].to_s.empty? ? nil : env["RUBYRIG_HOST_ID"],
        sections: sections
      )
    end
  end
end
