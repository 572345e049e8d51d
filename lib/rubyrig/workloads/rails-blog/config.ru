# Boots the blog (with a fresh copy of its seeded database) and hands it to the app server.
require_relative "config/environment"

run Rails.application
