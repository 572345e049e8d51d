# The blog's base controller: the logged-in user from the cookie session, and the page asked for.
class ApplicationController < ActionController::Base
  # Writes come API-style from a load generator, without a form's CSRF token.
  skip_forgery_protection

  private

  def current_user
    return @current_user if defined?(@current_user)
    @current_user = session[:user_id] && User.find_by(id: session[:user_id])
  end

  def page = [params[:page].to_i, 1].max
end
