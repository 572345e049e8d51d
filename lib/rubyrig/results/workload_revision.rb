# The revision of a workload's own code, recorded in run.json when the run starts: the commit checked
# out (git rev-parse HEAD) in the folder of its file (script, jobs file, app), else of the experiment,
# and whether that work tree had changes (git status, untracked files included). Nil outside a git
# work tree or without git. The adapter of the git tool.
module Rubyrig
  module Results
    module WorkloadRevision
      TIMEOUT_S = 30

      module_function

      # target: the workload's file or folder (anything else, such as a command's argv, is skipped);
      # base_dir: the experiment's folder. {"commit" => sha, "dirty" => true/false} or nil.
      def of(target, base_dir)
        dir = folder(target) || base_dir
        return nil unless dir && File.directory?(dir)
        commit = git(dir, "rev-parse", "--verify", "HEAD")
        return nil unless commit&.match?(/\A\h{40,64}\z/)
        status = git(dir, "status", "--porcelain")
        {"commit" => commit, "dirty" => status.nil? ? nil : !status.empty?}
      end

      def folder(target)
        return nil unless target.is_a?(String)
        return target if File.directory?(target)
        File.file?(target) ? File.dirname(target) : nil
      end

      # git's stripped output, or nil when it fails (not a work tree, no commit yet, no git).
      def git(dir, *args)
        out, _err, exit = Processes::Child.capture(["git", "-C", dir, *args], env: {"GIT_OPTIONAL_LOCKS" => "0"}, timeout_s: TIMEOUT_S)
        exit.success? ? out.strip : nil
      rescue ToolMissing, Processes::Child::Timeout
        nil
      end
    end
  end
end
