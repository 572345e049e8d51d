# Waiting for SQLite's write lock without holding Ruby's GVL, on Rails 7.2 as Rails 8 does. Rails 7.2
# waits with SQLite's busy_timeout, which sleeps inside SQLite holding the GVL: a Puma thread waiting
# for the lock that another thread of its worker holds keeps that thread from committing, so both stop
# until the timeout (10 s, then a 500), and a worker stuck so does not stop on TERM. The sqlite3 gem's
# busy_handler_timeout retries from Ruby and sleeps between tries, letting the holder finish.
if ActiveRecord.version < Gem::Version.new("8.0")
  ActiveSupport.on_load(:active_record_sqlite3adapter) do
    prepend(Module.new do
      private

      def configure_connection
        super
        @raw_connection.busy_handler_timeout = self.class.type_cast_config_to_integer(@config[:timeout]) if @config[:timeout]
      end
    end)
  end
end
