# The JSON API: a page of posts with their authors, and a post with its comments.
module Api
  class PostsController < ApplicationController
    def index
      render json: Post.includes(:user).newest_page(page).map { |post| summary(post) }
    end

    def show
      post = Post.includes(:user, comments: :user).find(params[:id])
      render json: summary(post).merge(
        body: post.body,
        comments: post.comments.map { |c| {id: c.id, author: c.user.name, body: c.body, created_at: c.created_at} }
      )
    end

    private

    def summary(post)
      {id: post.id, title: post.title, excerpt: post.excerpt, author: {id: post.user.id, name: post.user.name},
       comments_count: post.comments_count, created_at: post.created_at}
    end
  end
end
