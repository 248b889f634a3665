# The models of the tables that db/migrate makes. In a Rails app, each class goes to its own file
# in app/models.
class ApplicationRecord < ActiveRecord::Base
  self.abstract_class = true

  # Keys that JSON must carry as strings of digits: JavaScript reads a JSON number as a double,
  # exact only up to 2^53 (Snowflake ids are above), and ActiveSupport writes a BigDecimal with
  # ".0" after the digits. Integer#to_s and BigDecimal#to_i give the digits, all of them.
  class_attribute :json_digit_keys, instance_accessor: false, default: []

  def serializable_hash(options = nil)
    hash = super
    self.class.json_digit_keys.each do |name|
      hash[name] = hash[name].to_i.to_s unless hash[name].nil?
    end
    hash
  end

  # The rows after the key `last` (every row for nil), in key order: keyset pagination, through the
  # primary key's index. One page is .limit(size).
  scope :after, ->(last) { (last.nil? ? all : where(arel_table[:id].gt(last))).order(:id) }
end

# Keys whose short URL form is idgen.to_alphanumeric(id): 22 characters for a uuid, 11 for a
# bigint, 16 for a DistributedId.
module UrlId
  extend ActiveSupport::Concern

  included { class_attribute :url_id_decodes_to, instance_accessor: false }

  def url_id
    self.class.where(id: id).pick(Arel.sql("idgen.to_alphanumeric(id)"))
  end

  class_methods do
    # The row of a URL id; nil for any other text (malformed too: a 404, not a 500).
    def find_by_url_id(text)
      find_by("id = idgen.try_alphanumeric_to_#{url_id_decodes_to}(?)", text)
    end
  end
end

class Order < ApplicationRecord     # uuid DEFAULT idgen.comb(): a String
  include UrlId
  self.url_id_decodes_to = "uuid"
end

class Event < ApplicationRecord     # uuid DEFAULT idgen.uuidv7(): a String
  include UrlId
  self.url_id_decodes_to = "uuid"
end

class Shipment < ApplicationRecord  # idgen.ulid DEFAULT idgen.ulid(): a String, the ULID
  # The row of a ULID that a user typed; nil for text that is not a ULID.
  def self.find_by_text(text)
    find_by("id = idgen.try_ulid_to_uuid(?)::idgen.ulid", text)
  end
end

class User < ApplicationRecord      # idgen.typeid DEFAULT idgen.new_typeid('user'): a String
  # The row of a TypeID that a user typed; nil for text that is not a TypeID of prefix user.
  def self.find_by_text(text)
    find_by("id = idgen.try_typeid(?, 'user')", text)
  end
end

class Message < ApplicationRecord   # bigint DEFAULT idgen.snowflake(): an Integer
  include UrlId
  self.url_id_decodes_to = "bigint"
  self.json_digit_keys = ["id"]
end

class Invoice < ApplicationRecord   # idgen.distributed_id DEFAULT idgen.distributed_id(): BigDecimal
  include UrlId
  self.url_id_decodes_to = "numeric"
  self.json_digit_keys = ["id"]
end
