# idgen from Active Record (Rails 6.1: Debian 12's ruby-activerecord, on ruby-pg): keys that the
# database generates, in tables that an Active Record migration makes.
#
# Active Record leaves a key out of the INSERT and reads it back with RETURNING. uuid, ULID and
# TypeID keys are Strings, a Snowflake id an Integer, a DistributedId (28 digits) a BigDecimal:
# every digit exact, as long as it never becomes a Float. JSON gets the two numeric keys as strings
# (ApplicationRecord.json_digit_keys). The schema is kept as structure.sql (schema_format = :sql,
# written by pg_dump): schema.rb knows no idgen type, and a test database loaded from it gets other
# column types.
require "active_record"
require "active_record/schema_dumper"
require "bigdecimal"
require "json"
require "tmpdir"

require_relative "config/initializers/idgen_types"
require_relative "app/models"

# config/database.yml: two databases on the server that PGHOST, PGPORT and PGUSER name.
ActiveRecord::Base.configurations = {
  "development" => { "adapter" => "postgresql", "database" => ENV.fetch("PGDATABASE", "postgres") },
  "test" => { "adapter" => "postgresql", "database" => "idgen_rails_test" },
}
# config/application.rb: config.active_record.schema_format = :sql
ActiveRecord::Base.schema_format = :sql
ActiveRecord::Migration.verbose = false
Tasks = ActiveRecord::Tasks::DatabaseTasks
Tasks.db_dir = Dir.mktmpdir # where structure.sql and schema.rb go (db/ in a Rails app)
# psql loads structure.sql; pg_dump's SELECT set_config(...) would print a table to the console.
Tasks.structure_load_flags = ["--output=/dev/null"]

# What the models would be without json_digit_keys, or with a Float or a String key attribute.
class PlainMessage < ActiveRecord::Base
  self.table_name = "messages"
end

class PlainInvoice < ActiveRecord::Base
  self.table_name = "invoices"
end

class FloatInvoice < ActiveRecord::Base
  self.table_name = "invoices"
  attribute :id, :float
end

class TextInvoice < ActiveRecord::Base
  self.table_name = "invoices"
  attribute :id, :string
end

$failed = 0
def check(description, passed)
  puts "#{passed ? "ok" : "not ok"} - Active Record: #{description}"
  $failed += 1 unless passed
end

# The SQLSTATE of the error that the block raises (Active Record wraps the driver's), nil if none.
def sqlstate
  yield
  nil
rescue ActiveRecord::StatementInvalid => e
  e.cause.result.error_field(PG::Result::PG_DIAG_SQLSTATE)
end

# A key as the database writes it (id::text): BigDecimal#to_s would add ".0".
def digits(key) = key.is_a?(BigDecimal) ? key.to_i.to_s : key.to_s

begin
  # bin/rails db:migrate, from scratch: down (for a rerun), then up.
  ActiveRecord::Base.establish_connection(:development)
  migrations = ActiveRecord::MigrationContext.new("#{__dir__}/db/migrate", ActiveRecord::SchemaMigration)
  migrations.migrate(0)
  migrations.migrate

  # What every key gets: 7 rows, read back, found, paged (3 a page) and written to JSON.
  [ # family, model, the key's Ruby class, whether key order is creation order
    ["COMB", Order, String, false],
    ["UUIDv7", Event, String, true],
    ["ULID", Shipment, String, true],
    ["TypeID", User, String, true],
    ["Snowflake", Message, Integer, true],
    ["DistributedId", Invoice, BigDecimal, true],
  ].each do |family, model, key_class, time_ordered|
    rows = Array.new(7) { |k| model.create!(number: k) }
    # (AS id_text: pluck would cast a column named id back to the key's Ruby class)
    stored = model.order(:number).pluck(Arel.sql("id::text AS id_text"))
    check("#{family}: create! reads each key back as #{key_class}, exactly the database's id::text",
          rows.all? { |row| row.id.is_a?(key_class) } && rows.map { |row| digits(row.id) } == stored)
    if model.include?(UrlId)
      check("#{family}: the short URL id (idgen.to_alphanumeric) finds the row, malformed text none",
            model.find_by_url_id(rows[3].url_id) == rows[3] &&
            model.find_by_url_id("not-an-id").nil?)
    else
      check("#{family}: the key's text finds the row (find, find_by_text), malformed text none",
            model.find(rows[3].id) == rows[3] && model.find_by_text(rows[3].id) == rows[3] &&
            model.find_by_text("not-an-id").nil?)
    end
    pages = [model.after(nil).limit(3).to_a]
    pages << model.after(pages.last.last.id).limit(3).to_a while pages.last.size == 3
    numbers = pages.flatten.map(&:number)
    check("#{family}: keyset pages give every row once, in key order#{", creation order" if time_ordered}",
          pages.map(&:size) == [3, 3, 1] && numbers == model.order(:id).pluck(:number) &&
          (!time_ordered || numbers == (0..6).to_a))
    check("#{family}: to_json writes the key as a JSON string, exactly id::text",
          JSON.parse(rows[3].to_json)["id"] == stored[3])
  end

  order = Order.find_by!(number: 0)
  check("COMB: the key is a COMB of this minute (idgen.comb_valid)",
        Order.where(id: order.id).pick(Arel.sql("idgen.comb_valid(id)")) == true)
  event = Event.find_by!(number: 0)
  check("UUIDv7: the key is a version 7 uuid (idgen.uuid_version)",
        Event.where(id: event.id).pick(Arel.sql("idgen.uuid_version(id)")) == 7)

  check("ULID: find_by(id:) with text that is not a ULID raises 22P02; find_by_text finds none",
        sqlstate { Shipment.find_by(id: "01ARZ3NDEKTSV4RRFFQ69G5FAI") } == "22P02" &&
        Shipment.find_by_text("01ARZ3NDEKTSV4RRFFQ69G5FAI").nil?)

  user = User.find_by!(number: 3)
  order_id = "order_#{user.id.split("_").last}" # the same uuid, another prefix
  check("TypeID: a TypeID of another prefix finds no user",
        User.find_by(id: order_id).nil? && User.find_by_text(order_id).nil?)
  check("TypeID: the CHECK refuses an order_ id as a user's key (23514)",
        sqlstate { User.create!(id: order_id, number: 7) } == "23514")

  # insert_all: one INSERT ... RETURNING id, so the ids share milliseconds and count up in them.
  ids = Message.insert_all(Array.new(7) { |k| { number: 10 + k } }).rows.flatten
  plain = PlainMessage.where(id: ids).map { |message| JSON.parse(message.to_json)["id"] }
  check("Snowflake: the ids are above 2^53, where a double (JavaScript's number) skips integers",
        ids.all? { |id| id > 2**53 })
  check("Snowflake: without json_digit_keys, to_json writes numbers, and a double changes some",
        plain.all?(Integer) && plain.any? { |id| id.to_f.to_i != id })

  invoice = Invoice.find_by!(number: 3)
  stored = Invoice.where(number: 3).pick(Arel.sql("id::text AS id_text"))
  check("DistributedId: without json_digit_keys, to_json writes the BigDecimal as \"<digits>.0\"",
        JSON.parse(PlainInvoice.find(invoice.id).to_json)["id"] == "#{stored}.0")
  float = FloatInvoice.find_by!(number: 3)
  # The key as PostgreSQL reads the Float that Rails sends ("1.1272148720885043e+27").
  sent = Invoice.connection.select_value("SELECT #{Invoice.connection.quote(float.id)}::numeric::text")
  check("DistributedId: a Float attribute keeps 17 digits: the key it sends has zeros after them",
        float.id.is_a?(Float) && sent != stored && sent.length == 28 && sent.sub(/0+\z/, "").length <= 17)
  check("DistributedId: so find_by(id:) finds nothing and update! saves nothing, without an error",
        FloatInvoice.find_by(id: float.id).nil? && float.update!(number: 30) &&
        Invoice.find(invoice.id).number == 3)
  text = TextInvoice.find_by!(number: 3)
  check("DistributedId: a String attribute keeps the digits, as \"<digits>.0\": found, update! saves",
        text.id == "#{stored}.0" && TextInvoice.find(text.id) == text && text.update!(number: 33) &&
        Invoice.find(invoice.id).number == 33)

  # bin/rails db:schema:dump: structure.sql (schema_format = :sql, by pg_dump); schema.rb to compare.
  development = ActiveRecord::Base.configurations.configs_for(env_name: "development").first
  test = ActiveRecord::Base.configurations.configs_for(env_name: "test").first
  Tasks.dump_schema(development)
  Tasks.dump_schema(development, :ruby)
  structure = File.read(File.join(Tasks.db_dir, "structure.sql"))
  schema_rb = File.read(File.join(Tasks.db_dir, "schema.rb"))
  check("structure.sql keeps the keys' types and DEFAULTs",
        ["id idgen.distributed_id DEFAULT idgen.distributed_id() NOT NULL",
         "id idgen.ulid DEFAULT idgen.ulid() NOT NULL",
         "id idgen.typeid DEFAULT idgen.new_typeid('user'::text) NOT NULL"].all? { |c| structure.include?(c) })
  check("schema.rb dumps the DistributedId key as :decimal",
        schema_rb.include?('create_table "invoices", id: :decimal, default: -> { "idgen.distributed_id()" }'))

  # bin/rails db:test:prepare: the test database, loaded from schema.rb, then from structure.sql.
  key_type = "SELECT format_type(atttypid, atttypmod) FROM pg_attribute " \
             "WHERE attrelid = '%s'::regclass AND attname = 'id'"
  negative = "INSERT INTO invoices (id, number) VALUES (-5.5, 0)"
  Tasks.purge(test)
  Tasks.load_schema(test, :ruby)
  connection = ActiveRecord::Base.connection
  check("a test database loaded from schema.rb gets a plain numeric key, which takes -5.5",
        connection.select_value(key_type % "invoices") == "numeric" &&
        sqlstate { connection.execute(negative) }.nil? &&
        connection.select_value("SELECT id::text FROM invoices") == "-5.5")
  made = connection.select_value("INSERT INTO shipments (number) VALUES (0) RETURNING id")
  check("a test database loaded from schema.rb gets a varchar ULID key, which the DEFAULT fills with uuid text",
        connection.select_value(key_type % "shipments") == "character varying" && made.match?(/\A\h{8}-\h{4}-/))
  Tasks.purge(test)
  Tasks.load_schema(test, :sql)
  connection = ActiveRecord::Base.connection
  check("a test database loaded from structure.sql keeps idgen.distributed_id: -5.5 is refused (23514)",
        connection.select_value(key_type % "invoices") == "idgen.distributed_id" &&
        sqlstate { connection.execute(negative) } == "23514")
  check("a test database loaded from structure.sql keeps idgen.ulid, idgen.typeid and the CHECK",
        connection.select_value(key_type % "shipments") == "idgen.ulid" &&
        connection.select_value(key_type % "users") == "idgen.typeid" &&
        sqlstate { connection.execute("INSERT INTO users VALUES ('#{order_id}', 0)") } == "23514")
rescue StandardError => e
  check("the recipe raised #{e.class}: #{e.message}", false)
ensure
  FileUtils.remove_entry(Tasks.db_dir)
end
exit($failed.zero? ? 0 : 1)
