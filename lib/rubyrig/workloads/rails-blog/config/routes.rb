# The blog's routes: pages, API-style writes, a JSON API, a login and a page only for logged-in users.
Rails.application.routes.draw do
  root "posts#index"
  resources :posts, only: %i[index show create update]
  # An update for clients that send no PATCH (httperf).
  post "posts/:id", to: "posts#update"
  namespace :api do
    resources :posts, only: %i[index show]
  end
  post "login", to: "sessions#create"
  get "account", to: "accounts#show"
end
