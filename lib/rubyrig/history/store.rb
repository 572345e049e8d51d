# A history: a directory with a version marker (history.json) and one JSON file per run under runs/,
# each written whole to a temporary file, fsynced, and linked into place, so readers never see half a
# file, a killed writer leaves only a temporary file that readers ignore and a later writer removes,
# and writers never block each other (see docs/history-format.md).
require "json"
require "fileutils"
require "securerandom"
require "time"

module Rubyrig
  module History
    class Store
      FORMAT_VERSION = 1
      MARKER = "history.json"
      RUNS = "runs"
      TEMP_PREFIX = ".tmp-"
      # A temporary file this old that no writer holds locked belongs to a writer that died.
      STALE_TEMP_S = 60

      attr_reader :path

      def initialize(path)
        @path = path
      end

      # Adds the finished run in run_dir and returns how many series points it added: 0 when the run is
      # already in the history (by its id), whoever added it, so adding twice, or from two processes at
      # once, records it once.
      def add(run_dir)
        record = RunRecord.from_results(run_dir)
        prepare!
        clean_stale_temps
        file = run_file(record["run_id"])
        return 0 if File.exist?(file) && RunFile.read(file)
        RunFile.create(file, JSON.pretty_generate(record) + "\n") ? Collate.points(record) : 0
      rescue SystemCallError => e # unwritable location, a full disk
        raise StoreError, "could not add #{run_dir} to the history #{@path}: #{e.message.sub(/ @ \w+ - .*\z/m, "")}; " \
          "nothing already recorded is lost: free space or fix permissions, then add it again"
      end

      # Refuses a path that cannot become or be a history of this format, without creating anything.
      def check!
        return check_marker! if File.exist?(File.join(@path, MARKER))
        raise StoreError, "#{@path} is a file, not a history folder; give a folder for the history" if File.file?(@path)
        foreign!
      end

      # Every series of the history (Array of History::Series), points ordered by time.
      def series = Collate.series(records)

      # Every run record, checked: a damaged file or one of a newer format stops the read with its name.
      def records
        check_marker!
        Dir.glob(File.join(runs_dir, "*.json")).sort.map { |file| RunFile.read(file) }
      end

      def runs_dir = File.join(@path, RUNS)

      def run_file(run_id) = File.join(runs_dir, "#{run_id}.json")

      private

      # Creates the history on first use; an existing one must be a history of a format this rubyrig reads.
      def prepare!
        check!
        create! unless File.exist?(File.join(@path, MARKER))
      end

      def foreign!
        return unless File.directory?(@path) && Dir.children(@path).any? { |c| c != RUNS && !c.start_with?(TEMP_PREFIX) }
        raise StoreError, "#{@path} is not a rubyrig history (no #{MARKER}) and not empty; give a new or empty directory"
      end

      def create!
        FileUtils.mkdir_p(runs_dir)
        marker = JSON.pretty_generate("format" => "rubyrig history", "format_version" => FORMAT_VERSION,
          "created_at" => Time.now.utc.iso8601) + "\n"
        RunFile.create(File.join(@path, MARKER), marker) || check_marker!
        RunFile.sync_dir(@path)
      end

      def check_marker!
        marker = File.join(@path, MARKER)
        unless File.file?(marker)
          raise StoreError, "#{@path} is not a rubyrig history (no #{MARKER}); add a run first with `rubyrig history add #{@path} RUN_DIR`"
        end
        version = RunFile.parse(marker)["format_version"]
        return if version == FORMAT_VERSION
        raise StoreError, "#{marker} says history format #{version.inspect}, and this rubyrig #{VERSION} reads format #{FORMAT_VERSION}; " \
          "use the rubyrig that wrote it (or a newer one), or give another history"
      end

      # Removes the temporary files of writers that died: old enough and locked by no one.
      def clean_stale_temps
        [@path, runs_dir].flat_map { |dir| Dir.glob(File.join(dir, "#{TEMP_PREFIX}*")) }.each do |temp|
          RunFile.remove_if_abandoned(temp, older_than_s: STALE_TEMP_S)
        end
      end
    end
  end
end
