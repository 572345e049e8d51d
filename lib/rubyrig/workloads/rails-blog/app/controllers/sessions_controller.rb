# Logging in: a known email and its password start a cookie session and redirect to the account page
# (303); anything else is 401.
class SessionsController < ApplicationController
  def create
    user = User.find_by(email: params[:email].to_s)
    return head(:unauthorized) unless user&.authenticate(params[:password])
    reset_session
    session[:user_id] = user.id
    redirect_to account_path, status: :see_other
  end
end
