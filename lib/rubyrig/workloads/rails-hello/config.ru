# Boots the Rails app and hands it to the app server.
require_relative "config/environment"

run Rails.application
