# One table per kind of key that idgen makes, each key filled by the column's DEFAULT. A type that
# Rails does not know is given by its SQL name ("idgen.ulid"); Rails writes it into the DDL as is.
class CreateKeyedTables < ActiveRecord::Migration[6.1]
  def change
    create_table :orders, id: :uuid, default: -> { "idgen.comb()" } do |t|
      t.integer :number, null: false
    end
    create_table :events, id: :uuid, default: -> { "idgen.uuidv7()" } do |t|
      t.integer :number, null: false
    end
    create_table :shipments, id: "idgen.ulid", default: -> { "idgen.ulid()" } do |t|
      t.integer :number, null: false
    end
    create_table :users, id: "idgen.typeid", default: -> { "idgen.new_typeid('user')" } do |t|
      t.integer :number, null: false
      t.check_constraint "idgen.typeid_prefix(id) = 'user'", name: "users_id_prefix"
    end
    create_table :messages, id: :bigint, default: -> { "idgen.snowflake()" } do |t|
      t.integer :number, null: false
    end
    create_table :invoices, id: "idgen.distributed_id", default: -> { "idgen.distributed_id()" } do |t|
      t.integer :number, null: false
    end
  end
end
