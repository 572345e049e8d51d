# The command kind: any argv run as a whole process under the runtime's environment and timed from
# outside, like hyperfine (`command: [bin/rails, runner, "1"]` or a command line); `chdir:` the
# directory it runs in.
module Rubyrig
  module Kinds
    module Command
      module Kind
        extend Contract

        def self.kind = "command"

        def self.keys = %w[chdir]

        def self.driver = Driver

        def self.load(fields, builtin:)
          chdir = fields.optional("chdir", String)
          argv = builtin ? builtin.name : fields.argv(selector, "a list of arguments such as [ruby, -e, \"1\"] or a command line")
          Loaded.new(target: argv, options: chdir ? {"chdir" => chdir} : {}, name: Array(argv).join(" ")[0, 60])
        end

        # Any command line: the kind tried last.
        def self.shortcut(args) = {selector => args}

        def self.run_name(entry) = File.basename(Array(entry[selector]).first.to_s)

        # The program must exist for the runtime (its bin directory comes first on PATH), else every
        # batch would fail the same way; a placeholder such as "{tool}" is checked by the batch itself.
        def self.preflight(workload, launch)
          program = workload.target.first
          return if program.include?("{")
          chdir = Driver.chdir(workload)
          candidate = (program.include?("/") && chdir) ? File.expand_path(program, chdir) : program
          path = [*launch.bin_dirs, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR)
          return if Processes::Which.find(candidate, path: path)
          raise ToolMissing, "cannot run the command workload: #{program} is not an executable on PATH for #{launch.runtime.label}; check the command or install it"
        end
      end
    end
  end
end
