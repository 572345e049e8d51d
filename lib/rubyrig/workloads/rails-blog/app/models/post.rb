# A post with its author and comments; the index lists them newest first, a page at a time.
class Post < ApplicationRecord
  PER_PAGE = 20

  belongs_to :user
  has_many :comments, -> { order(:id) }

  validates :title, presence: true, length: {maximum: 200}
  validates :body, presence: true

  scope :newest_page, ->(page) { order(id: :desc).limit(PER_PAGE).offset((page - 1) * PER_PAGE) }

  def self.page_count = (count + PER_PAGE - 1) / PER_PAGE

  def excerpt = body.truncate(200, separator: " ")
end
