# A small blog for measuring a Rails app that does real work per request: Active Record on SQLite
# (users, posts, comments), ERB views with a layout and partials, a JSON API, writes, a cookie session
# and a static file, in production.
require "rails"
require "active_record/railtie"
require "action_controller/railtie"
require "action_view/railtie"
require_relative "../lib/blog_database"
require_relative "../lib/sqlite_lock_wait"

module RailsBlog
  class Application < Rails::Application
    config.load_defaults Rails::VERSION::STRING.to_f
    config.root = File.expand_path("..", __dir__)
    config.eager_load = true
    config.consider_all_requests_local = false
    config.cache_store = :null_store
    # Rails 7.2+ would turn YJIT on by itself; the runtime spec (+yjit) decides instead.
    config.yjit = false if config.respond_to?(:yjit=)
    # Nothing secret is signed; a fixed key keeps the app bootable without credentials.
    config.secret_key_base = ENV.fetch("SECRET_KEY_BASE") { "rubyrig-rails-blog-" * 4 }
    config.logger = ActiveSupport::Logger.new($stdout)
    config.log_level = ENV.fetch("RAILS_LOG_LEVEL", "warn").to_sym
    # public/blog.css is served by the app itself, as a Rails app without a front server does.
    config.public_file_server.enabled = true
    # A short session cookie (its name, and no purpose metadata inside): httperf's sessions carry at most
    # 256 bytes of cookie, and Rails' encrypted session with its metadata takes about 300.
    config.session_store :cookie_store, key: "_blog"
    config.action_dispatch.use_cookies_with_metadata = false
    config.active_record.dump_schema_after_migration = false
  end
end
