# The blog's tables: users who write posts and comments on them (a post keeps its comment count).
ActiveRecord::Schema.define do
  create_table :users do |t|
    t.string :name, null: false
    t.string :email, null: false, index: {unique: true}
    t.string :password_sha256, null: false
    t.text :bio, null: false
    t.timestamps
  end

  create_table :posts do |t|
    t.references :user, null: false, foreign_key: true
    t.string :title, null: false
    t.text :body, null: false
    t.integer :comments_count, null: false, default: 0
    t.timestamps
  end

  create_table :comments do |t|
    t.references :post, null: false, foreign_key: true
    t.references :user, null: false, foreign_key: true
    t.text :body, null: false
    t.timestamps
  end
end
