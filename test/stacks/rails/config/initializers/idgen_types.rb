# Active Record reads idgen.ulid and idgen.typeid columns as strings, their text. Without this it
# does too, but warns "unknown OID ...: failed to recognize type of 'id'" for every such column.
require "active_record/connection_adapters/postgresql_adapter"

module IdgenTextTypes
  private

  def initialize_type_map(m = type_map)
    super
    m.register_type "ulid", ActiveRecord::Type::String.new   # found by the type's name
    m.register_type "typeid", ActiveRecord::Type::String.new
  end
end

ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(IdgenTextTypes)
