# The posts as HTML pages (a paginated index, a post with its comments) and API-style writes that
# answer JSON: create (201) and update (200), or 422 with the errors.
class PostsController < ApplicationController
  def index
    @page = page
    @posts = Post.includes(:user).newest_page(@page)
    @page_count = Post.page_count
  end

  def show
    @post = Post.includes(:user, comments: :user).find(params[:id])
  end

  def create
    post = Post.new(post_params)
    post.user = current_user if current_user
    if post.save
      render json: attributes(post), status: :created, location: post_url(post)
    else
      render json: {errors: post.errors}, status: 422
    end
  end

  def update
    post = Post.find(params[:id])
    if post.update(post_params.except(:user_id))
      render json: attributes(post)
    else
      render json: {errors: post.errors}, status: 422
    end
  end

  private

  def post_params = params.require(:post).permit(:title, :body, :user_id)

  def attributes(post) = post.as_json(only: %i[id user_id title comments_count created_at updated_at])
end
