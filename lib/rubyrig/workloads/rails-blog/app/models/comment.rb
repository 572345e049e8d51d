# A comment by a user on a post (the post keeps their count).
class Comment < ApplicationRecord
  belongs_to :post, counter_cache: true
  belongs_to :user
end
