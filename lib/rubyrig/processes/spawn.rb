# One posix_spawn(3) call prepared in full beforehand (argv, environment, standard streams, process
# group, signals), so that starting the program is a single C call: the C library's vfork-style clone
# and the exec, with no Ruby in between, as a program such as hyperfine starts a command.
require "fiddle"

module Rubyrig
  module Processes
    class Spawn
      ATTR_BYTES = 1024 # posix_spawnattr_t is 336 bytes with glibc on 64-bit Linux; room to spare
      ACTIONS_BYTES = 256 # posix_spawn_file_actions_t is 80 bytes
      SIGSET_BYTES = 128
      SETPGROUP = 0x02
      SETSIGDEF = 0x04
      SETSIGMASK = 0x08
      FIRST_CLOSED_FD = 3

      # path: the program's absolute path; argv: with argv[0]; env: the whole environment (name => value).
      # The program leads a new process group, starts with every signal at its default and none blocked,
      # and inherits no descriptor but its standard streams.
      def initialize(path:, argv:, env:)
        @path = Fiddle::Pointer["#{path}\0"]
        @argv, @argv_strings = pointer_array(argv)
        @envp, @env_strings = pointer_array(env.map { |k, v| "#{k}=#{v}" })
        @attr = attributes
        @pid = Fiddle::Pointer.malloc(8, Fiddle::RUBY_FREE)
        @function = Libc.function(:posix_spawn, [Fiddle::TYPE_VOIDP] * 6)
      end

      # The descriptors that become the program's 0, 1 and 2 (in the process that will call #call).
      def streams(fds)
        @actions = file_actions(fds)
        self
      end

      # Starts the program; returns its pid, or raises the SystemCallError that exec reported.
      def call
        error = @function.call(@pid, @path, @actions, @attr, @argv, @envp)
        raise SystemCallError.new(nil, error) unless error.zero?
        @pid.to_str(8).unpack1("l")
      end

      private

      def pointer_array(strings)
        held = strings.map { |s| Fiddle::Pointer["#{s}\0"] }
        array = Fiddle::Pointer.malloc(8 * (held.size + 1), Fiddle::RUBY_FREE)
        array[0, 8 * (held.size + 1)] = [*held.map(&:to_i), 0].pack("Q*")
        [array, held]
      end

      def attributes
        attr = Fiddle::Pointer.malloc(ATTR_BYTES, Fiddle::RUBY_FREE)
        setup(:posix_spawnattr_init, attr)
        setup(:posix_spawnattr_setflags, attr, SETPGROUP | SETSIGDEF | SETSIGMASK, type: Fiddle::TYPE_SHORT)
        setup(:posix_spawnattr_setpgroup, attr, 0, type: Fiddle::TYPE_INT)
        setup(:posix_spawnattr_setsigdefault, attr, signal_set(:sigfillset))
        setup(:posix_spawnattr_setsigmask, attr, signal_set(:sigemptyset))
        attr
      end

      def signal_set(fill)
        set = Fiddle::Pointer.malloc(SIGSET_BYTES, Fiddle::RUBY_FREE)
        Libc.function(fill, [Fiddle::TYPE_VOIDP]).call(set)
        (@sets ||= []) << set
        set
      end

      def file_actions(fds)
        actions = Fiddle::Pointer.malloc(ACTIONS_BYTES, Fiddle::RUBY_FREE)
        setup(:posix_spawn_file_actions_init, actions)
        fds.each_with_index do |fd, target|
          setup(:posix_spawn_file_actions_adddup2, actions, fd, target, type: Fiddle::TYPE_INT, count: 2)
        end
        # Descriptors opened by Ruby close on exec anyway; this also closes any a C extension left open.
        if Libc.has?(:posix_spawn_file_actions_addclosefrom_np)
          setup(:posix_spawn_file_actions_addclosefrom_np, actions, FIRST_CLOSED_FD, type: Fiddle::TYPE_INT)
        end
        actions
      end

      # Calls a posix_spawn* setup function: a pointer, then `count` arguments of `type`; raises on error.
      def setup(name, pointer, *args, type: Fiddle::TYPE_VOIDP, count: args.size)
        error = Libc.function(name, [Fiddle::TYPE_VOIDP, *[type] * count]).call(pointer, *args)
        raise SystemCallError.new(name.to_s, error) unless error.zero?
      end
    end
  end
end
