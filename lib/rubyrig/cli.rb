# The command line: picks the subcommand, turns errors into one line that names the fix (a backtrace
# only with --debug), and returns the exit status. Each subcommand lives in lib/rubyrig/commands/.
require "optparse"

module Rubyrig
  class CLI
    COMMANDS = {
      "run" => :Run, "compare" => :Compare, "report" => :Report, "runtimes" => :Runtimes,
      "build" => :Build, "install" => :Install, "doctor" => :Doctor, "demo" => :Demo, "workloads" => :Workloads,
      "merge" => :Merge, "deploy" => :Deploy, "why" => :Why, "history" => :HistoryCommand
    }.freeze

    USAGE = <<~TEXT
      Usage: rubyrig COMMAND [options]

      Compare Ruby runtimes on your workload, with honest statistics.

      Commands:
        compare    run a workload under several runtimes from the command line
        run        run an experiment file, or resume an interrupted run (--resume DIR)
        report     render the report of a finished or partial run again
        why        rerun each decided difference with one factor switched at a time: how much of the gap each removes
        merge      merge the shards of a run (rubyrig run --shard K/N) into one run and report it
        history    keep runs in a history (add) and follow each figure across runs, versions and commits
        deploy     print a Kubernetes Job or GitHub Actions workflow that runs an experiment in shards
        runtimes   list the Ruby interpreters rubyrig can find
        build      build CRuby from source into rubyrig's cache
        install    install a newer JRuby from Debian's packages into rubyrig's cache
        workloads  list the built-in workloads
        doctor     check tools, interpreters and the host, and say what to fix
        demo       compare the system Ruby with and without YJIT (and 3.3.8 when built)

      Global options:
        --debug      show backtraces for errors
        -h, --help   show help (also: rubyrig COMMAND --help)
        --version    print the version

      Environment: NO_COLOR turns colour off; RUBYRIG_CACHE_DIR moves the cache (default ~/.cache/rubyrig);
      RUBYRIG_HOST_ID names the host trials are recorded under (default: the hostname; in a container, set
      it to the machine's name).
    TEXT

    EXIT_OK = 0
    EXIT_ERROR = 1
    EXIT_USAGE = 2
    EXIT_GATE = 3
    EXIT_INTERRUPTED = 130

    # sections: the report's sections (nil: the default; a test adds its fixture's).
    def initialize(argv, env: ENV.to_h, out: $stdout, err: $stderr, sections: nil)
      @argv = argv.map { |arg| utf8(arg) }
      @settings = Settings.from_env(env.to_h { |k, v| [utf8(k), utf8(v)] }, out: out, err: err, sections: sections)
    end

    # World-writable files are never made, by rubyrig or the processes it starts: the user's umask is
    # kept, with write for others taken away when it would allow it (umask 000).
    PRIVATE_UMASK_BITS = 0o002

    def run
      umask = File.umask
      File.umask(umask | PRIVATE_UMASK_BITS)
      @settings.debug = !@argv.delete("--debug").nil?
      check_arguments!
      name = @argv.shift
      dispatch(name)
    rescue Interrupt
      @settings.err.puts("\nrubyrig: interrupted")
      EXIT_INTERRUPTED
    rescue OptionParser::ParseError => e
      report_error(UsageError.new("#{option_problem(e)}; see `rubyrig #{name} --help`"))
      EXIT_USAGE
    rescue UsageError => e
      report_error(e)
      EXIT_USAGE
    rescue Error => e
      report_error(e)
      EXIT_ERROR
    ensure
      File.umask(umask)
    end

    private

    def dispatch(name)
      case name
      when nil, "-h", "--help", "help"
        @settings.out.puts(USAGE)
        name.nil? ? EXIT_USAGE : EXIT_OK
      when "--version", "-v"
        @settings.out.puts("rubyrig #{VERSION}")
        EXIT_OK
      else
        command = COMMANDS.fetch(name) { raise UsageError, unknown_command(name) }
        Commands.const_get(command).new(@argv, @settings).call
      end
    end

    def check_arguments!
      invalid = @argv.find { |arg| !arg.valid_encoding? }
      raise UsageError, "argument #{invalid.scrub.dump} is not valid UTF-8; rubyrig reads arguments and file names as UTF-8" if invalid
      nul = @argv.find { |arg| arg.include?("\0") }
      raise UsageError, "argument #{nul.dump} holds a NUL byte, which no file name or program argument can; remove it" if nul
    end

    # Arguments and environment arrive in the locale's encoding (US-ASCII or binary without a locale);
    # rubyrig writes UTF-8 JSON, so their bytes are read as the UTF-8 that file names and text are.
    def utf8(text) = text.dup.force_encoding(Encoding::UTF_8)

    def report_error(error)
      @settings.err.puts("rubyrig: error: #{Printable.line(error.message)}")
      @settings.err.puts(error.full_message(highlight: false)) if @settings.debug
    end

    # OptionParser's message on one line: its "Did you mean?" suggestions, on lines of their own, become
    # a parenthesis naming the options as they are typed.
    def option_problem(error)
      problem, suggestions = error.message.split(/\n\s*Did you mean\?\s*/, 2)
      return problem.lines.map(&:strip).join("; ") unless suggestions
      "#{problem} (did you mean #{suggestions.split.map { |s| "--#{s}" }.join(" or ")}?)"
    end

    def unknown_command(name)
      "unknown command '#{name}'; #{Suggest.hint(name, COMMANDS.keys, fallback: "see `rubyrig --help`")}"
    end
  end
end
