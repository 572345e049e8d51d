# The page only a logged-in user sees: their profile and their latest posts; 401 without a session.
class AccountsController < ApplicationController
  def show
    return render(plain: "Log in first: POST /login with email and password.\n", status: :unauthorized) unless current_user
    @user = current_user
    @posts = @user.posts.order(id: :desc).limit(10)
  end
end
