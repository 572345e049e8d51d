# The blog's base model.
class ApplicationRecord < ActiveRecord::Base
  primary_abstract_class
end
