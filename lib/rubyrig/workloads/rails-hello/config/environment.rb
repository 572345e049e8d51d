# Loads and initializes the app (production mode is set by rubyrig through RAILS_ENV).
require_relative "application"

Rails.application.initialize!
