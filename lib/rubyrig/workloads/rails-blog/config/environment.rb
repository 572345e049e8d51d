# Loads the app on a fresh copy of the seeded template database (so that each Puma, that is each batch,
# starts from the same rows), initializes it, and records the row counts at boot and at exit.
require_relative "application"

BlogDatabase.use_fresh_copy
Rails.application.initialize!
BlogDatabase.record_counts
