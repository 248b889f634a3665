// idgen from JDBC (Java 17, pgjdbc 42.5): keys the database generates, read back as Java types.
//
// Every table's key has an idgen DEFAULT, so the INSERT leaves the key out and JDBC reads it back
// with getGeneratedKeys (pgjdbc adds RETURNING "id"). The keys arrive as java.util.UUID (uuid),
// long (the Snowflake bigint), java.math.BigDecimal (the 28-digit idgen.distributed_id) and String
// (the ULID and TypeID text). JDBC has no migration tool of its own, so the program runs its DDL
// itself (MIGRATION below; a Flyway or Liquibase changeset would hold the same statements).
//
// setObject picks the parameter's SQL type from the Java class: UUID is sent as uuid, BigDecimal
// as numeric, Long as bigint, OffsetDateTime as timestamptz, and a String as varchar, which
// compares with none of these (42883). So pass the Java type that matches the column, or open the
// connection with stringtype=unspecified, which sends Strings untyped: the server then reads them
// as the column's type, which is what the ULID and TypeID keys (Strings in Java) need.
//
// Run: java -cp /usr/share/java/postgresql.jar IdgenJdbc.java, with PGHOST, PGPORT, PGUSER and
// PGDATABASE set. pgjdbc speaks TCP only: PGHOST is a host name or address, not a socket directory.
// Prints one line per check ("ok - ..." or "not ok - ..."); exits 1 if a check failed.

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.util.PGobject;

public class IdgenJdbc {
  // The migration: one statement per table, each key filled by its column's DEFAULT.
  static final String MIGRATION = """
      DROP TABLE IF EXISTS jdbc_orders, jdbc_readings, jdbc_events, jdbc_invoices,
                           jdbc_shipments, jdbc_users, jdbc_ledger;
      CREATE TABLE jdbc_orders (          -- COMB
        id       uuid PRIMARY KEY DEFAULT idgen.comb(),
        customer text NOT NULL
      );
      CREATE TABLE jdbc_readings (        -- UUIDv7
        id    uuid PRIMARY KEY DEFAULT idgen.uuidv7(),
        value integer NOT NULL
      );
      CREATE TABLE jdbc_events (          -- Snowflake (needs idgen.node_id)
        id   bigint PRIMARY KEY DEFAULT idgen.snowflake(),
        kind text NOT NULL
      );
      CREATE TABLE jdbc_invoices (        -- DistributedId: 28 digits
        id    idgen.distributed_id PRIMARY KEY DEFAULT idgen.distributed_id(),
        total numeric(12,2) NOT NULL
      );
      CREATE TABLE jdbc_shipments (       -- ULID
        id     idgen.ulid PRIMARY KEY DEFAULT idgen.ulid(),
        parcel integer NOT NULL
      );
      CREATE TABLE jdbc_users (           -- TypeID
        id   idgen.typeid PRIMARY KEY DEFAULT idgen.new_typeid('user')
             CHECK (idgen.typeid_prefix(id) = 'user'),
        name text NOT NULL
      );
      CREATE TABLE jdbc_ledger (          -- ledger event ids, made here from their parts
        id   idgen.event_id PRIMARY KEY,
        note text NOT NULL
      );
      """;

  static int failed = 0;

  static void check(String description, boolean passed) {
    System.out.println((passed ? "ok - " : "not ok - ") + description);
    if (!passed) failed++;
  }

  // A column as the Java type: getString for String (pgjdbc's getObject(column, String.class) takes
  // only text columns: for idgen.ulid it fails with 22023), getObject(column, type) otherwise.
  static <T> T read(ResultSet row, String column, Class<T> type) throws SQLException {
    return type == String.class ? type.cast(row.getString(column)) : row.getObject(column, type);
  }

  // Runs a query with each parameter passed by setObject (so its Java class picks its SQL type)
  // and returns the first column of every row as the Java type.
  static <T> List<T> list(Connection db, Class<T> type, String sql, Object... params) throws SQLException {
    try (PreparedStatement statement = db.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) statement.setObject(i + 1, params[i]);
      try (ResultSet rows = statement.executeQuery()) {
        List<T> values = new ArrayList<>();
        String column = rows.getMetaData().getColumnLabel(1);
        while (rows.next()) values.add(read(rows, column, type));
        return values;
      }
    }
  }

  // The first column of the first row, or null when there is no row.
  static <T> T one(Connection db, Class<T> type, String sql, Object... params) throws SQLException {
    List<T> values = list(db, type, sql, params);
    return values.isEmpty() ? null : values.get(0);
  }

  // INSERTs a row without its key and returns the key the column's DEFAULT gave it.
  static <T> T insert(Connection db, Class<T> type, String sql, Object... params) throws SQLException {
    try (PreparedStatement statement = db.prepareStatement(sql, new String[] {"id"})) {
      for (int i = 0; i < params.length; i++) statement.setObject(i + 1, params[i]);
      statement.executeUpdate();
      try (ResultSet keys = statement.getGeneratedKeys()) {
        keys.next();
        return read(keys, "id", type);
      }
    }
  }

  // Every key of a table, a page at a time: WHERE id > the last key seen ORDER BY id LIMIT size.
  static <T> List<List<T>> keysetPages(Connection db, Class<T> type, String table, int size)
      throws SQLException {
    List<List<T>> pages = new ArrayList<>();
    pages.add(list(db, type, "SELECT id FROM " + table + " ORDER BY id LIMIT ?", size));
    while (pages.get(pages.size() - 1).size() == size) {
      T last = pages.get(pages.size() - 1).get(size - 1);
      pages.add(list(db, type, "SELECT id FROM " + table + " WHERE id > ? ORDER BY id LIMIT ?", last, size));
    }
    return pages;
  }

  static <T> List<Integer> sizes(List<List<T>> pages) {
    return pages.stream().map(List::size).toList();
  }

  static <T> List<T> flat(List<List<T>> pages) {
    return pages.stream().flatMap(List::stream).toList();
  }

  interface SqlAction {
    void run() throws SQLException;
  }

  // The SQLSTATE of the error the action raised, with the server's message: "42883 operator does
  // not exist: uuid = character varying"; "no error" when it ran.
  static String error(SqlAction action) {
    try {
      action.run();
      return "no error";
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage().lines().findFirst().orElse("").replaceFirst("^ERROR: ", "");
    }
  }

  // A JSON string: what every JSON reader keeps exactly, digits included.
  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }

  // What a JSON reader that holds numbers as doubles (JavaScript's JSON.parse, and many others)
  // makes of an integer written as a JSON number: the nearest double, written back in full.
  static String throughDouble(String digits) {
    return new BigDecimal(Double.parseDouble(digits)).toBigInteger().toString();
  }

  static String env(String name, String otherwise) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? otherwise : value;
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://" + env("PGHOST", "localhost") + ":" + env("PGPORT", "5432") + "/"
        + env("PGDATABASE", "postgres");
    Properties settings = new Properties();
    settings.setProperty("user", env("PGUSER", System.getProperty("user.name")));
    // The second connection sends String parameters untyped: the server reads each as the type
    // it is compared with (uuid, numeric, idgen.ulid, idgen.typeid, idgen.event_id).
    Properties untypedStrings = new Properties();
    untypedStrings.putAll(settings);
    untypedStrings.setProperty("stringtype", "unspecified");
    try (Connection db = DriverManager.getConnection(url, settings);
         Connection textDb = DriverManager.getConnection(url, untypedStrings)) {
      try (Statement statement = db.createStatement()) {
        statement.execute(MIGRATION);
      }
      check("the migration made 6 tables whose keys are filled by an idgen DEFAULT",
          one(db, Long.class, "SELECT count(*) FROM information_schema.columns WHERE table_name LIKE 'jdbc%'"
              + " AND column_name = 'id' AND column_default LIKE 'idgen.%'") == 6);
      comb(db, textDb);
      uuidv7(db);
      snowflake(db);
      distributedId(db, textDb);
      ulid(db, textDb);
      typeid(db, textDb);
      eventId(db, textDb);
      toJson(db);
    } catch (Exception e) {
      check("the recipe raised " + e, false);
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  static void comb(Connection db, Connection textDb) throws SQLException {
    UUID order = insert(db, UUID.class, "INSERT INTO jdbc_orders (customer) VALUES (?)", "ada");
    check("COMB: the key is read back after the insert as a java.util.UUID of version 4", order.version() == 4);
    check("COMB: idgen.comb_valid(?) with the UUID says it is a COMB of this minute",
        one(db, Boolean.class, "SELECT idgen.comb_valid(?)", order));
    String text = order.toString();
    check("COMB trap: idgen.comb_valid(?) with a String fails: "
        + "42883 function idgen.comb_valid(character varying) does not exist",
        error(() -> one(db, Boolean.class, "SELECT idgen.comb_valid(?)", text))
            .equals("42883 function idgen.comb_valid(character varying) does not exist"));
    check("COMB trap: WHERE id = ? with a String fails: "
        + "42883 operator does not exist: uuid = character varying",
        error(() -> one(db, String.class, "SELECT customer FROM jdbc_orders WHERE id = ?", text))
            .equals("42883 operator does not exist: uuid = character varying"));
    check("COMB: WHERE id = ? with the UUID finds the row",
        "ada".equals(one(db, String.class, "SELECT customer FROM jdbc_orders WHERE id = ?", order)));
    check("COMB: with stringtype=unspecified, the String works in both",
        "ada".equals(one(textDb, String.class, "SELECT customer FROM jdbc_orders WHERE id = ?", text))
            && one(textDb, Boolean.class, "SELECT idgen.comb_valid(?)", text));

    String urlId = one(db, String.class,
        "SELECT idgen.to_alphanumeric(id) FROM jdbc_orders WHERE id = ?", order);
    String byUrl = "SELECT customer FROM jdbc_orders WHERE id = idgen.try_alphanumeric_to_uuid(?)";
    check("COMB: the 22-character URL id finds the order through idgen.try_alphanumeric_to_uuid",
        urlId.length() == 22 && "ada".equals(one(db, String.class, byUrl, urlId)));
    check("COMB: a malformed URL id finds nothing, without an error",
        one(db, String.class, byUrl, "not-an-id") == null);

    for (String customer : List.of("grace", "linus", "barbara", "edsger")) {
      insert(db, UUID.class, "INSERT INTO jdbc_orders (customer) VALUES (?)", customer);
    }
    List<List<UUID>> pages = keysetPages(db, UUID.class, "jdbc_orders", 2);
    check("COMB: keyset pages (WHERE id > ? with the last UUID) give every order once, in key order",
        sizes(pages).equals(List.of(2, 2, 1))
            && flat(pages).equals(list(db, UUID.class, "SELECT id FROM jdbc_orders ORDER BY id")));
  }

  static void uuidv7(Connection db) throws SQLException {
    List<UUID> readings = new ArrayList<>();
    for (int value = 1; value <= 5; value++) {
      readings.add(insert(db, UUID.class, "INSERT INTO jdbc_readings (value) VALUES (?)", value));
    }
    check("UUIDv7: the keys are read back as java.util.UUID of version 7",
        readings.stream().allMatch(id -> id.version() == 7));
    List<List<UUID>> pages = keysetPages(db, UUID.class, "jdbc_readings", 2);
    check("UUIDv7: keyset pages give every reading once, in insert order",
        sizes(pages).equals(List.of(2, 2, 1)) && flat(pages).equals(readings));
    String lastHour = "SELECT count(*) FROM jdbc_readings WHERE id >= idgen.uuidv7_bound(?)";
    check("UUIDv7: idgen.uuidv7_bound(?) with an OffsetDateTime finds the last hour's readings",
        one(db, Long.class, lastHour, OffsetDateTime.now().minusHours(1)) == 5);
    check("UUIDv7 trap: an Instant parameter fails in the driver: 07006 Can't infer the SQL type to use "
        + "for an instance of java.time.Instant",
        error(() -> one(db, Long.class, lastHour, Instant.now().minusSeconds(3600)))
            .startsWith("07006 Can't infer the SQL type to use for an instance of java.time.Instant."));
    String urlId = one(db, String.class, "SELECT idgen.to_alphanumeric(id) FROM jdbc_readings WHERE value = 3");
    check("UUIDv7: the 22-character URL id finds the reading through idgen.try_alphanumeric_to_uuid",
        readings.get(2).equals(one(db, UUID.class,
            "SELECT id FROM jdbc_readings WHERE id = idgen.try_alphanumeric_to_uuid(?)", urlId)));
  }

  static void snowflake(Connection db) throws SQLException {
    List<Long> events = new ArrayList<>();
    for (String kind : List.of("signup", "login", "order", "login", "logout",
                               "signup", "login", "order", "login", "logout")) {
      events.add(insert(db, Long.class, "INSERT INTO jdbc_events (kind) VALUES (?)", kind));
    }
    List<String> sqlTexts = list(db, String.class, "SELECT id::text FROM jdbc_events ORDER BY id");
    check("Snowflake: the keys are read back as long, above 2^53, equal to the database's id::text",
        events.stream().allMatch(id -> id > (1L << 53))
            && events.stream().map(String::valueOf).toList().equals(sqlTexts));
    String urlId = one(db, String.class,
        "SELECT idgen.to_alphanumeric(id) FROM jdbc_events WHERE id = ?", events.get(4));
    String byUrl = "SELECT id FROM jdbc_events WHERE id = idgen.try_alphanumeric_to_bigint(?)";
    check("Snowflake: the 11-character URL id finds the event through idgen.try_alphanumeric_to_bigint",
        urlId.length() == 11 && events.get(4).equals(one(db, Long.class, byUrl, urlId)));
    check("Snowflake: a malformed URL id finds nothing, without an error",
        one(db, Long.class, byUrl, "not-an-id") == null);
    List<List<Long>> pages = keysetPages(db, Long.class, "jdbc_events", 4);
    check("Snowflake: keyset pages (WHERE id > ? with the last long) give every event once, in insert order",
        sizes(pages).equals(List.of(4, 4, 2)) && flat(pages).equals(events));
    check("Snowflake: idgen.snowflake_bound(?) with an OffsetDateTime finds the last hour's events",
        one(db, Long.class, "SELECT count(*) FROM jdbc_events WHERE id >= idgen.snowflake_bound(?)",
            OffsetDateTime.now().minusHours(1)) == 10);

    // A double (getDouble, a JavaScript number) holds 53 bits. A Snowflake id is the ms << 22, the
    // node << 12 and a per-ms sequence: the first id of a millisecond (sequence 0) fits a double,
    // so a test that makes one id at a time passes, and ids made in a burst do not.
    try (Statement statement = db.createStatement()) {
      statement.executeUpdate("INSERT INTO jdbc_events (kind) SELECT 'import' FROM generate_series(1, 100)");
    }
    List<String> all = list(db, String.class, "SELECT id::text FROM jdbc_events ORDER BY id");
    check("Snowflake trap: a double keeps every id of sequence 0 (the first of its ms), "
        + "and changes some of the ids made in a burst of 100",
        all.stream().filter(text -> (Long.parseLong(text) & 4095) == 0)
                .allMatch(text -> throughDouble(text).equals(text))
            && all.stream().anyMatch(text -> !throughDouble(text).equals(text)));
  }

  static void distributedId(Connection db, Connection textDb) throws SQLException {
    BigDecimal invoice = insert(db, BigDecimal.class, "INSERT INTO jdbc_invoices (total) VALUES (?)",
        new BigDecimal("120.50"));
    String sqlText = one(db, String.class, "SELECT id::text FROM jdbc_invoices WHERE id = ?", invoice);
    check("DistributedId: the key is read back as a BigDecimal with all 28 digits, equal to id::text",
        invoice.toPlainString().length() == 28 && invoice.toPlainString().equals(sqlText));
    try (PreparedStatement statement = db.prepareStatement("SELECT id FROM jdbc_invoices WHERE id = ?")) {
      statement.setBigDecimal(1, invoice);
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        check("DistributedId: getBigDecimal keeps every digit",
            rows.getBigDecimal("id").toPlainString().equals(sqlText));
        check("DistributedId trap: getDouble rounds it (a double holds 15 to 17 digits)",
            !new BigDecimal(rows.getDouble("id")).toBigInteger().toString().equals(sqlText));
        check("DistributedId trap: getLong refuses it: 22003 (Bad value for type long)",
            error(() -> rows.getLong("id")).startsWith("22003 Bad value for type long"));
      }
    }
    check("DistributedId trap: WHERE id = ? with a String fails: "
        + "42883 operator does not exist: idgen.distributed_id = character varying",
        error(() -> one(db, BigDecimal.class, "SELECT id FROM jdbc_invoices WHERE id = ?", sqlText))
            .equals("42883 operator does not exist: idgen.distributed_id = character varying"));
    check("DistributedId: with stringtype=unspecified, the String finds the row",
        invoice.equals(one(textDb, BigDecimal.class, "SELECT id FROM jdbc_invoices WHERE id = ?", sqlText)));
    check("DistributedId trap: idgen.to_alphanumeric(?) with a String fails: 42725 "
        + "idgen.to_alphanumeric needs its argument typed as the id's type, not as text",
        error(() -> one(db, String.class, "SELECT idgen.to_alphanumeric(?)", sqlText))
            .equals("42725 idgen.to_alphanumeric needs its argument typed as the id's type, not as text"));
    String urlId = one(db, String.class, "SELECT idgen.to_alphanumeric(?)", invoice);
    String byUrl = "SELECT id FROM jdbc_invoices WHERE id = idgen.try_alphanumeric_to_numeric(?)";
    check("DistributedId: idgen.to_alphanumeric(?) with the BigDecimal gives the 16-character URL id, "
        + "which finds the invoice through idgen.try_alphanumeric_to_numeric",
        urlId.length() == 16 && invoice.equals(one(db, BigDecimal.class, byUrl, urlId)));
    check("DistributedId: a malformed URL id finds nothing, without an error",
        one(db, BigDecimal.class, byUrl, "not-an-id") == null);
    List<BigDecimal> invoices = new ArrayList<>(List.of(invoice));
    for (int k = 1; k <= 4; k++) {
      invoices.add(insert(db, BigDecimal.class, "INSERT INTO jdbc_invoices (total) VALUES (?)",
          new BigDecimal(k)));
    }
    List<List<BigDecimal>> pages = keysetPages(db, BigDecimal.class, "jdbc_invoices", 2);
    check("DistributedId: keyset pages (WHERE id > ? with the last BigDecimal) give every invoice once, "
        + "in insert order", sizes(pages).equals(List.of(2, 2, 1)) && flat(pages).equals(invoices));
    check("DistributedId: idgen.distributed_id_bound(?) with an OffsetDateTime finds the last hour's invoices",
        one(db, Long.class, "SELECT count(*) FROM jdbc_invoices WHERE id >= idgen.distributed_id_bound(?)",
            OffsetDateTime.now().minusHours(1)) == 5);
  }

  static void ulid(Connection db, Connection textDb) throws SQLException {
    List<String> shipments = new ArrayList<>();
    for (int parcel = 0; parcel < 7; parcel++) {
      shipments.add(insert(db, String.class, "INSERT INTO jdbc_shipments (parcel) VALUES (?)", parcel));
    }
    check("ULID: the keys are read back as Strings, the 26-character text the database holds",
        shipments.equals(list(db, String.class,
                "SELECT idgen.to_ulid(id::uuid) FROM jdbc_shipments ORDER BY parcel"))
            && shipments.stream().allMatch(id -> id.matches("[0-7][0-9A-HJKMNP-TV-Z]{25}")));
    try (Statement statement = db.createStatement();
         ResultSet rows = statement.executeQuery("SELECT id FROM jdbc_shipments WHERE parcel = 0")) {
      rows.next();
      check("ULID trap: getObject(\"id\", String.class) fails: 22023 conversion to class java.lang.String "
          + "from \"idgen\".\"ulid\" not supported",
          error(() -> rows.getObject("id", String.class))
              .equals("22023 conversion to class java.lang.String from \"idgen\".\"ulid\" not supported"));
      check("ULID: getObject(\"id\") gives an org.postgresql.util.PGobject; getString(\"id\") gives the text",
          rows.getObject("id") instanceof PGobject pg && pg.getValue().equals(shipments.get(0))
              && rows.getString("id").equals(shipments.get(0)));
    }
    String third = shipments.get(3);
    String byId = "SELECT parcel FROM jdbc_shipments WHERE id = ?";
    check("ULID trap: WHERE id = ? with the String fails: "
        + "42883 operator does not exist: idgen.ulid = character varying",
        error(() -> one(db, Integer.class, byId, third))
            .equals("42883 operator does not exist: idgen.ulid = character varying"));
    check("ULID: with stringtype=unspecified, WHERE id = ? with the String finds the shipment",
        one(textDb, Integer.class, byId, third) == 3);
    check("ULID: without it, WHERE id = ?::idgen.ulid does",
        one(db, Integer.class, "SELECT parcel FROM jdbc_shipments WHERE id = ?::idgen.ulid", third) == 3);
    String untrusted = "SELECT parcel FROM jdbc_shipments WHERE id = idgen.try_ulid_to_uuid(?)::idgen.ulid";
    check("ULID: text from a URL goes through idgen.try_ulid_to_uuid: "
        + "the shipment, or nothing for malformed text",
        one(db, Integer.class, untrusted, third) == 3
            && one(db, Integer.class, untrusted, "not-a-ulid") == null);
    List<List<String>> pages = keysetPages(textDb, String.class, "jdbc_shipments", 3);
    check("ULID: keyset pages (WHERE id > ? with the last String) give every shipment once, in insert order",
        sizes(pages).equals(List.of(3, 3, 1)) && flat(pages).equals(shipments));
  }

  static void typeid(Connection db, Connection textDb) throws SQLException {
    List<String> users = new ArrayList<>();
    for (String name : List.of("ada", "grace", "linus")) {
      users.add(insert(db, String.class, "INSERT INTO jdbc_users (name) VALUES (?)", name));
    }
    check("TypeID: the keys are read back as Strings, the text the database holds",
        users.equals(list(db, String.class,
                "SELECT idgen.typeid('user', id::uuid) FROM jdbc_users ORDER BY id"))
            && users.stream().allMatch(id -> id.matches("user_[0-7][0-9a-hjkmnp-tv-z]{25}")));
    String byId = "SELECT name FROM jdbc_users WHERE id = ?";
    check("TypeID trap: WHERE id = ? with the String fails: "
        + "42883 operator does not exist: idgen.typeid = character varying",
        error(() -> one(db, String.class, byId, users.get(1)))
            .equals("42883 operator does not exist: idgen.typeid = character varying"));
    check("TypeID: with stringtype=unspecified, WHERE id = ? with the String finds the user",
        "grace".equals(one(textDb, String.class, byId, users.get(1))));
    List<List<String>> pages = keysetPages(textDb, String.class, "jdbc_users", 2);
    check("TypeID: keyset pages give every user once, in insert order",
        sizes(pages).equals(List.of(2, 1)) && flat(pages).equals(users));
    String orderId = "order_" + users.get(1).substring("user_".length()); // the same uuid, another prefix
    check("TypeID: an id of another prefix finds no user, by WHERE id = ? or by idgen.try_typeid(?, 'user')",
        one(textDb, String.class, byId, orderId) == null
            && one(db, String.class,
                "SELECT name FROM jdbc_users WHERE id = idgen.try_typeid(?, 'user')", orderId) == null);
    check("TypeID: the CHECK refuses an order_ id as a user's key: 23514",
        error(() -> insert(textDb, String.class, "INSERT INTO jdbc_users (id, name) VALUES (?, ?)",
                orderId, "not a user"))
            .startsWith("23514 new row for relation \"jdbc_users\" violates check constraint"));
    check("TypeID trap: idgen.typeid(?) with a String is read as a cast to idgen.typeid: "
        + "22P02 invalid TypeID: \"user\"",
        error(() -> one(db, String.class, "SELECT idgen.typeid(?)", "user"))
            .equals("22P02 invalid TypeID: \"user\""));
    check("TypeID trap: with stringtype=unspecified it fails too: "
        + "42P18 could not determine data type of parameter $1",
        error(() -> one(textDb, String.class, "SELECT idgen.typeid(?)", "user"))
            .equals("42P18 could not determine data type of parameter $1"));
    check("TypeID: idgen.new_typeid(?) makes a new TypeID of a prefix given as a parameter, "
        + "on both connections",
        one(db, String.class, "SELECT idgen.new_typeid(?)", "order").startsWith("order_")
            && one(textDb, String.class, "SELECT idgen.new_typeid(?)", "order").startsWith("order_"));
  }

  static void eventId(Connection db, Connection textDb) throws SQLException {
    String event = insert(db, String.class,
        "INSERT INTO jdbc_ledger (id, note) VALUES (idgen.event_id(?, ?, ?), ?)",
        1700000000000000L, 12345L, 316600640L, "created");
    check("event id: read back as a String of 32 hex digits", event.matches("[0-9a-f]{32}"));
    String byId = "SELECT note FROM jdbc_ledger WHERE id = ?";
    check("event id trap: WHERE id = ? with the String fails: "
        + "42883 operator does not exist: idgen.event_id = character varying",
        error(() -> one(db, String.class, byId, event))
            .equals("42883 operator does not exist: idgen.event_id = character varying"));
    check("event id: with stringtype=unspecified, the String finds the event",
        "created".equals(one(textDb, String.class, byId, event)));
  }

  static void toJson(Connection db) throws SQLException {
    // Each row as a JSON object, its key written as a JSON string (never as a JSON number).
    StringBuilder document = new StringBuilder("{\"events\":[");
    try (Statement statement = db.createStatement();
         ResultSet rows = statement.executeQuery("SELECT id, kind FROM jdbc_events ORDER BY id")) {
      while (rows.next()) {
        if (!rows.isFirst()) document.append(',');
        document.append("{\"id\":").append(json(String.valueOf(rows.getLong("id"))))
            .append(",\"kind\":").append(json(rows.getString("kind"))).append('}');
      }
    }
    document.append("],\"invoices\":[");
    try (Statement statement = db.createStatement();
         ResultSet rows = statement.executeQuery("SELECT id, total FROM jdbc_invoices ORDER BY id")) {
      while (rows.next()) {
        if (!rows.isFirst()) document.append(',');
        document.append("{\"id\":").append(json(rows.getBigDecimal("id").toPlainString()))
            .append(",\"total\":").append(json(rows.getBigDecimal("total").toPlainString())).append('}');
      }
    }
    document.append("]}");

    // Read the ids back out of the JSON text, as a reader in any language sees them.
    List<String> jsonIds = new ArrayList<>();
    Matcher id = Pattern.compile("\"id\":\"([0-9]+)\"").matcher(document);
    while (id.find()) jsonIds.add(id.group(1));
    List<String> sqlTexts = list(db, String.class,
        "SELECT id::text FROM (SELECT 1 AS part, id::text AS id FROM jdbc_events"
            + " UNION ALL SELECT 2, id::text FROM jdbc_invoices) ids ORDER BY part, id");
    check("JSON: the document's Snowflake and DistributedId keys, as JSON strings, "
        + "are digit for digit the database's id::text", jsonIds.equals(sqlTexts) && jsonIds.size() == 115);
    check("JSON trap: written as JSON numbers, a double-based reader (JavaScript's JSON.parse) "
        + "would change some Snowflake ids and every DistributedId",
        sqlTexts.subList(0, 110).stream().anyMatch(text -> !throughDouble(text).equals(text))
            && sqlTexts.subList(110, 115).stream().noneMatch(text -> throughDouble(text).equals(text)));
  }
}
