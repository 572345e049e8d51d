# A minimal Rails app for measuring Rails' own cost per request: Action Controller only, no database,
# no assets, one route that returns a static string.
require "rails"
require "action_controller/railtie"

module RailsHello
  class Application < Rails::Application
    config.load_defaults Rails::VERSION::STRING.to_f
    config.root = File.expand_path("..", __dir__)
    config.eager_load = true
    config.consider_all_requests_local = false
    config.cache_store = :null_store
    # Rails 7.2+ would turn YJIT on by itself; the runtime spec (+yjit) decides instead.
    config.yjit = false if config.respond_to?(:yjit=)
    # Nothing secret is signed; a fixed key keeps the app bootable without credentials.
    config.secret_key_base = ENV.fetch("SECRET_KEY_BASE") { "rubyrig-rails-hello-" * 4 }
    config.logger = ActiveSupport::Logger.new($stdout)
    config.log_level = ENV.fetch("RAILS_LOG_LEVEL", "warn").to_sym

    routes.append do
      root "hello#index"
    end
  end
end
