# builtin:uptime-checks, INSIDE the target runtime: the database the check results go to. SQLite (the
# sqlite3 gem, WAL, synchronous=NORMAL) at RUBYRIG_DATABASE_URL=sqlite3:PATH, or PostgreSQL (the pg gem)
# at a postgres:// URL. One connection per worker thread, as a pool sized to Sidekiq's concurrency
# gives. Rows carry the batch id, so that a shared PostgreSQL database can hold many batches.
# Old syntax; the standard library and the database's gem only.
module CheckStore
  TABLE = "rubyrig_checks"
  BUSY_TIMEOUT_MS = 10_000

  module_function

  def url
    ENV.fetch("RUBYRIG_DATABASE_URL")
  end

  def sqlite?
    url.start_with?("sqlite3:")
  end

  def batch_id
    RubyrigJobs.batch_id
  end

  # Before the enqueue: the table, and no rows left from an earlier try of this batch.
  def setup
    db = connect
    execute(db, "PRAGMA journal_mode = WAL", []) if sqlite?
    real = sqlite? ? "REAL" : "DOUBLE PRECISION"
    execute(db, "CREATE TABLE IF NOT EXISTS #{TABLE} (batch_id TEXT NOT NULL, jid TEXT NOT NULL, " \
      "kind TEXT NOT NULL, status TEXT NOT NULL, latency_s #{real} NOT NULL)", [])
    execute(db, "DELETE FROM #{TABLE} WHERE batch_id = ?", [batch_id])
    db.close
  end

  def insert(jid, kind, status, latency_s)
    execute(connection, "INSERT INTO #{TABLE} (batch_id, jid, kind, status, latency_s) VALUES (?, ?, ?, ?, ?)",
      [batch_id, jid, kind, status, latency_s])
  end

  # After the drain: the rows of this batch checked against the number of jobs, and their latencies.
  def report
    db = connect
    rows = execute(db, "SELECT jid, kind, status, latency_s FROM #{TABLE} WHERE batch_id = ?", [batch_id])
    db.close
    expected = RubyrigJobs.job_count
    distinct = rows.map { |row| row[0] }.uniq.size
    problems = []
    problems << "the database holds #{rows.size} check rows for #{expected} jobs" if rows.size != expected
    problems << "#{rows.size - distinct} check rows repeat a job" if distinct != rows.size
    distributions = {"check_latency" => rows.map { |row| Float(row[3]) }}
    rows.group_by { |row| row[1] }.each do |kind, group|
      distributions["check_latency_" + kind] = group.map { |row| Float(row[3]) }
    end
    {
      "metrics" => {"check_rows" => rows.size, "check_failure_count" => rows.count { |row| row[2] != "up" }},
      "distributions" => distributions,
      "problems" => problems
    }
  end

  def connection
    Thread.current[:rubyrig_check_store] ||= connect
  end

  def connect
    if sqlite?
      require "sqlite3"
      db = SQLite3::Database.new(url.sub("sqlite3:", ""))
      if db.respond_to?(:busy_handler_timeout=)
        db.busy_handler_timeout = BUSY_TIMEOUT_MS
      else
        db.busy_timeout = BUSY_TIMEOUT_MS
      end
      db.execute("PRAGMA synchronous = NORMAL")
      db
    else
      require "pg"
      PG.connect(url)
    end
  end

  # Runs sql with ? placeholders on either database and returns the rows as arrays.
  def execute(db, sql, binds)
    return db.execute(sql, binds) if sqlite?
    index = 0
    numbered = sql.gsub("?") { "$" + (index += 1).to_s }
    db.exec_params(numbered, binds).values
  end
end
