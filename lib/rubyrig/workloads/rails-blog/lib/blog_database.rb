# The blog's database across batches: a seeded template built once per gem set (bin/prepare, the
# workload's prepare step) and, when a server boots, a fresh copy of it in a directory of its own that
# the server removes at exit, so that one batch's writes never reach the next. The row counts at boot
# (and again at a clean exit) go to a file beside rubyrig's probe reports, which end in the batch's
# artifacts: written at boot, they are there even when the server is killed.
require "digest"
require "json"
require "fileutils"
require "tmpdir"

module BlogDatabase
  APP_DIR = File.expand_path("..", __dir__)
  # What the template is made from: changing either builds a new one.
  SOURCES = %w[db/schema.rb db/seeds.rb].freeze
  FACTS_PREFIX = "blog-database-"

  # The server was started without the template (the prepare step did not run).
  class TemplateMissingError < StandardError; end

  module_function

  # Beside the runtime's gem set (one template per interpreter and Gemfile), else in the temp directory.
  def cache_dir
    gemfile = ENV["BUNDLE_GEMFILE"]
    gemfile ? File.join(File.dirname(gemfile), "rails-blog") : File.join(Dir.tmpdir, "rails-blog-#{Process.uid}")
  end

  def template_path
    digest = Digest::SHA256.hexdigest(SOURCES.map { |f| File.binread(File.join(APP_DIR, f)) }.join("\0"))[0, 12]
    File.join(cache_dir, "template-#{digest}.sqlite3")
  end

  # The template's path, built first unless it is there: under a lock (runs at once may share a gem
  # set), into a partial file that is renamed into place once the block has seeded it.
  def ensure_template
    path = template_path
    return path if File.file?(path)
    FileUtils.mkdir_p(File.dirname(path))
    File.open("#{path}.lock", File::RDWR | File::CREAT) do |lock|
      lock.flock(File::LOCK_EX)
      next if File.file?(path)
      partial = "#{path}.#{Process.pid}.partial"
      begin
        yield partial
        File.rename(partial, path)
      ensure
        FileUtils.rm_f(partial)
      end
    end
    path
  end

  # Copies the template into a new directory and names the copy in RUBYRIG_BLOG_DATABASE for
  # config/database.yml. Runs once per server, before Puma forks any worker.
  def use_fresh_copy
    template = template_path
    unless File.file?(template)
      raise TemplateMissingError, "no seeded database at #{template}: run `ruby bin/prepare` in #{APP_DIR} " \
        "with this gem set first (rubyrig runs it as the workload's prepare step)"
    end
    remove_abandoned_copies
    @dir = Dir.mktmpdir("rails-blog-#{Process.pid}-")
    @path = File.join(@dir, "blog.sqlite3")
    FileUtils.cp(template, @path)
    ENV["RUBYRIG_BLOG_DATABASE"] = @path
  end

  # Records the rows at boot, closes the booting process's connection (each worker opens its own), and
  # at this process's exit records the rows again and removes the copy.
  def record_counts
    owner = Process.pid
    @facts = {"at_boot" => counts, "template" => template_path}
    report
    ActiveRecord::Base.connection_pool.disconnect!
    at_exit do
      next unless Process.pid == owner
      begin
        @facts["at_exit"] = counts
        report
      ensure
        FileUtils.rm_rf(@dir)
      end
    end
  end

  # The copies of servers that were killed before their exit could remove them (their pid is gone).
  def remove_abandoned_copies
    Dir.glob(File.join(Dir.tmpdir, "rails-blog-*-*")).each do |dir|
      pid = File.basename(dir)[/\Arails-blog-(\d+)-/, 1].to_i
      next unless pid.positive? && File.owned?(dir)
      Process.kill(0, pid)
    rescue Errno::ESRCH
      FileUtils.rm_rf(dir)
    rescue Errno::EPERM # alive, another user's
      nil
    end
  end

  def counts
    {"users" => User.count, "posts" => Post.count, "comments" => Comment.count, "bytes" => File.size(@path)}
  end

  # blog-database-<pid>.json in RUBYRIG_PROBE_DIR (when rubyrig runs the server), replaced whole.
  def report
    dir = ENV["RUBYRIG_PROBE_DIR"]
    return unless dir && File.directory?(dir)
    path = File.join(dir, "#{FACTS_PREFIX}#{Process.pid}.json")
    File.write("#{path}.partial", JSON.generate(@facts))
    File.rename("#{path}.partial", path)
  end
end
