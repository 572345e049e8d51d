# `rubyrig runtimes`: every interpreter found, with version, engine, path and what it supports.
module Rubyrig
  module Commands
    class Runtimes < Base
      def call
        if @argv.include?("--help") || @argv.include?("-h")
          out.puts("Usage: rubyrig runtimes\n\nLists interpreters on PATH, in rbenv, asdf, mise, chruby, rvm, /opt/rubies and #{@settings.cache_dir}/rubies.")
          return CLI::EXIT_OK
        end
        rows = [%w[NAME ENGINE VERSION YJIT JEMALLOC M:N SOURCE PATH]]
        catalog.interpreters.each do |i|
          rows << [i.name, i.engine, i.version, yes_no(i.yjit), i.jemalloc_linked ? "linked" : "preload", yes_no(i.mn?), i.source, i.path]
        end
        widths = rows.transpose.map { |col| col.map(&:length).max }
        rows.each { |row| out.puts(row.each_with_index.map { |v, i| v.ljust(widths[i]) }.join("  ").rstrip) }
        jemalloc = @settings.jemalloc
        out.puts("\njemalloc for +jemalloc: #{jemalloc.path || jemalloc.problem}")
        CLI::EXIT_OK
      end

      private

      def yes_no(flag) = flag ? "yes" : "no"
    end
  end
end
