# A writer of posts and comments, who can log in with an email and a password.
require "digest"

class User < ApplicationRecord
  has_many :posts
  has_many :comments

  # A digest without a cost factor: logging in is a request among others here, not a defence.
  def self.password_digest_for(password) = Digest::SHA256.hexdigest("rails-blog:#{password}")

  def authenticate(password)
    ActiveSupport::SecurityUtils.secure_compare(password_sha256, self.class.password_digest_for(password.to_s))
  end
end
