// idgen from Go with pgx v4 (Debian 12's golang-github-jackc-pgx-v4-dev, 4.15): keys the database
// generates, read back as Go values without losing a digit.
//
// Go has no standard migration tool, so the program runs its own DDL: six tables whose keys come
// from idgen through column DEFAULTs. pgx reads uuid as pgtype.UUID (its 16 bytes), bigint as
// int64, numeric as pgtype.Numeric, and idgen.ulid and idgen.typeid (types pgx does not know) as
// their text into a Go string. Each key family: insert without the key, read it back, find the row
// by its short URL form, page through the table by the key (keyset pagination), and write JSON.
// The traps of this stack are checks too: each wrong way is shown failing or losing digits next to
// the right way.
//
// Build with Debian's packages only (GOPATH mode, no module download):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o idgen-go-recipe main.go
//
// Run with the libpq variables: PGHOST=... PGPORT=... PGUSER=... PGDATABASE=... ./idgen-go-recipe
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

// The migration: every key is the database's, from the column's DEFAULT.
const schema = `
DROP TABLE IF EXISTS go_orders, go_payments, go_shipments, go_users, go_posts, go_invoices;
CREATE TABLE go_orders    (id uuid PRIMARY KEY DEFAULT idgen.comb(),       customer text NOT NULL);
CREATE TABLE go_payments  (id uuid PRIMARY KEY DEFAULT idgen.uuidv7(),     amount integer NOT NULL);
CREATE TABLE go_shipments (id idgen.ulid PRIMARY KEY DEFAULT idgen.ulid(), parcel integer NOT NULL);
CREATE TABLE go_users (
  id   idgen.typeid PRIMARY KEY DEFAULT idgen.new_typeid('user') CHECK (idgen.typeid_prefix(id) = 'user'),
  name text NOT NULL
);
CREATE TABLE go_posts     (id bigint PRIMARY KEY DEFAULT idgen.snowflake(), title text NOT NULL);
CREATE TABLE go_invoices  (
  id    idgen.distributed_id PRIMARY KEY DEFAULT idgen.distributed_id(),
  total numeric(12,2) NOT NULL
);`

var failed = 0

// check prints one line per claim, and the diagnostics of a failed one.
func check(description string, passed bool, diagnostics ...any) {
	if passed {
		fmt.Println("ok - pgx: " + description)
		return
	}
	failed++
	fmt.Println("not ok - pgx: " + description)
	for _, d := range diagnostics {
		if d != nil {
			fmt.Printf("# %v\n", d)
		}
	}
}

// column runs a query and scans the one column of every row it returns into a T.
func column[T any](ctx context.Context, conn *pgx.Conn, sql string, args ...any) ([]T, error) {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var values []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		values = append(values, v)
	}
	return values, rows.Err()
}

// keysetPages reads a table's keys a page at a time, as an API pages through it: ORDER BY id
// LIMIT size, then WHERE id > the last key seen. key is what each row gives ("id", or "id::text"
// for the 28-digit ids), scanned into a K; the last key goes back as the next page's parameter.
func keysetPages[K any](ctx context.Context, conn *pgx.Conn, table, key string, size int) ([][]K, error) {
	first := fmt.Sprintf("SELECT %s FROM %s ORDER BY id LIMIT $1", key, table)
	next := fmt.Sprintf("SELECT %s FROM %s WHERE id > $1 ORDER BY id LIMIT $2", key, table)
	page, err := column[K](ctx, conn, first, size)
	pages := [][]K{page}
	for err == nil && len(page) == size {
		page, err = column[K](ctx, conn, next, page[size-1], size)
		pages = append(pages, page)
	}
	return pages, err
}

// pageSizes and flat describe keyset pages for the checks.
func pageSizes[K any](pages [][]K) string {
	sizes := make([]string, len(pages))
	for i, p := range pages {
		sizes[i] = strconv.Itoa(len(p))
	}
	return strings.Join(sizes, ",")
}

func flat[K any](pages [][]K) []K {
	var all []K
	for _, p := range pages {
		all = append(all, p...)
	}
	return all
}

// uuidText is the canonical text of a uuid that pgx read as a pgtype.UUID.
func uuidText(u pgtype.UUID) string {
	b := u.Bytes
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func uuidTexts(ids []pgtype.UUID) []string {
	texts := make([]string, len(ids))
	for i, id := range ids {
		texts[i] = uuidText(id)
	}
	return texts
}

func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

func same[K comparable](a, b []K) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// uuidKeys: COMB (go_orders) or UUIDv7 (go_payments), uuid keys read as pgtype.UUID.
func uuidKeys(ctx context.Context, conn *pgx.Conn, family, table, insert, orderBy string, version byte) pgtype.UUID {
	ids, err := column[pgtype.UUID](ctx, conn, insert)
	texts, err2 := column[string](ctx, conn, "SELECT id::text FROM "+table+" ORDER BY "+orderBy)
	versionOK := len(ids) == 7
	for _, id := range ids {
		versionOK = versionOK && id.Status == pgtype.Present && id.Bytes[6]>>4 == version
	}
	check(fmt.Sprintf("%s: 7 keys come back from RETURNING id as pgtype.UUID, version %d, equal to id::text",
		family, version), err == nil && err2 == nil && versionOK && same(uuidTexts(ids), texts), err, err2, texts)
	if len(ids) != 7 || len(texts) != 7 {
		return pgtype.UUID{}
	}

	// The short URL form: idgen.to_alphanumeric(id) in SQL, 22 characters; decoded with
	// idgen.try_alphanumeric_to_uuid, which is NULL (no row) for anything malformed.
	var urlID, found string
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric(id) FROM "+table+" WHERE id = $1", ids[3]).Scan(&urlID)
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT id::text FROM "+table+" WHERE id = idgen.try_alphanumeric_to_uuid($1)",
			urlID).Scan(&found)
	}
	check(family+": the 22-character URL id finds the row through idgen.try_alphanumeric_to_uuid($1)",
		err == nil && len(urlID) == 22 && found == texts[3], err, urlID)
	err = conn.QueryRow(ctx, "SELECT id::text FROM "+table+" WHERE id = idgen.try_alphanumeric_to_uuid($1)",
		"not-an-id").Scan(&found)
	check(family+": a malformed URL id finds nothing, without an error", errors.Is(err, pgx.ErrNoRows), err)

	// Keyset pages of 3, the last key (a pgtype.UUID) as the parameter. uuids compare byte by
	// byte, so the database's order is the order of their texts (lower-case hex).
	pages, err := keysetPages[pgtype.UUID](ctx, conn, table, "id", 3)
	sorted := uuidTexts(ids)
	sort.Strings(sorted)
	check(family+": keyset pages (WHERE id > $1 ORDER BY id LIMIT 3) give every key once, in the key's order",
		err == nil && pageSizes(pages) == "3,3,1" && same(uuidTexts(flat(pages)), sorted), err)
	return ids[0]
}

// combAndUUIDv7Keys: uuid columns, DEFAULT idgen.comb() and DEFAULT idgen.uuidv7().
func combAndUUIDv7Keys(ctx context.Context, conn *pgx.Conn) (pgtype.UUID, pgtype.UUID) {
	order := uuidKeys(ctx, conn, "COMB", "go_orders",
		"INSERT INTO go_orders (customer) SELECT 'customer ' || g FROM generate_series(1, 7) g RETURNING id",
		"customer", 4)
	var valid bool
	err := conn.QueryRow(ctx, "SELECT idgen.comb_valid($1)", order).Scan(&valid)
	check("COMB: the key is a COMB of this minute (idgen.comb_valid($1) with the pgtype.UUID)", err == nil && valid, err)

	payment := uuidKeys(ctx, conn, "UUIDv7", "go_payments",
		"INSERT INTO go_payments (amount) SELECT g FROM generate_series(1, 7) g RETURNING id", "amount", 7)
	amounts, err := column[int32](ctx, conn, "SELECT amount FROM go_payments ORDER BY id")
	check("UUIDv7: ORDER BY id is creation order", err == nil && same(amounts, []int32{1, 2, 3, 4, 5, 6, 7}), err, amounts)

	// Trap: idgen.to_alphanumeric has overloads (bigint, numeric, uuid, text, ...), so an untyped $1
	// is taken as text, and pgx sends the pgtype.UUID's 16 raw bytes as that text.
	var urlID string
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric($1)", payment).Scan(&urlID)
	check("trap: idgen.to_alphanumeric($1) with a pgtype.UUID fails: its raw bytes sent as text (22021)",
		sqlState(err) == "22021", err)
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric($1::uuid)", payment).Scan(&urlID)
	check("fix: idgen.to_alphanumeric($1::uuid) gives the 22-character URL id", err == nil && len(urlID) == 22, err)
	return order, payment
}

// ulidKeys: an idgen.ulid column, DEFAULT idgen.ulid(); pgx reads and writes the ULID's text.
func ulidKeys(ctx context.Context, conn *pgx.Conn) string {
	shipments, err := column[string](ctx, conn,
		"INSERT INTO go_shipments (parcel) SELECT g FROM generate_series(0, 6) g RETURNING id")
	texts, err2 := column[string](ctx, conn, "SELECT idgen.to_ulid(id::uuid) FROM go_shipments ORDER BY parcel")
	pattern := regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)
	check("ULID: the keys come back as Go strings, the 26-character text the database holds",
		err == nil && err2 == nil && len(shipments) == 7 && same(shipments, texts) &&
			pattern.MatchString(shipments[0]), err, err2, shipments)
	if len(shipments) != 7 {
		return ""
	}
	var parcel int32
	err = conn.QueryRow(ctx, "SELECT parcel FROM go_shipments WHERE id = $1", shipments[3]).Scan(&parcel)
	check("ULID: WHERE id = $1 with the text as a Go string finds the shipment (the text is the URL id)",
		err == nil && parcel == 3, err)
	err = conn.QueryRow(ctx, "SELECT parcel FROM go_shipments WHERE id = idgen.try_ulid_to_uuid($1)::idgen.ulid",
		"not-a-ulid").Scan(&parcel)
	check("ULID: malformed text through idgen.try_ulid_to_uuid($1)::idgen.ulid finds nothing, without an error",
		errors.Is(err, pgx.ErrNoRows), err)
	err = conn.QueryRow(ctx, "SELECT parcel FROM go_shipments WHERE id = $1", "01ARZ3NDEKTSV4RRFFQ69G5FAI").Scan(&parcel)
	check("ULID: malformed text as a plain parameter raises 22P02", sqlState(err) == "22P02", err)

	// Trap: pgx does not know idgen's types, and scans a value of an unknown type into a string
	// (or []byte), not into an interface{}.
	var anything any
	err = conn.QueryRow(ctx, "SELECT id FROM go_shipments WHERE id = $1", shipments[3]).Scan(&anything)
	check("trap: scanning an idgen.ulid into an interface{} fails (unknown oid): scan into a string",
		err != nil && strings.Contains(err.Error(), "cannot be scanned into *interface {}"), err)

	pages, err := keysetPages[string](ctx, conn, "go_shipments", "id", 3)
	check("ULID: keyset pages (WHERE id > $1 with the last text) give every shipment once, in creation order",
		err == nil && pageSizes(pages) == "3,3,1" && same(flat(pages), shipments), err)
	return shipments[0]
}

// typeidKeys: an idgen.typeid column, DEFAULT idgen.new_typeid('user'), held to its prefix by a CHECK.
func typeidKeys(ctx context.Context, conn *pgx.Conn) string {
	users, err := column[string](ctx, conn,
		"INSERT INTO go_users (name) VALUES ('ada'), ('grace'), ('linus') RETURNING id")
	texts, err2 := column[string](ctx, conn, "SELECT idgen.typeid('user', id::uuid) FROM go_users ORDER BY id")
	pattern := regexp.MustCompile(`^user_[0-7][0-9a-hjkmnp-tv-z]{25}$`)
	check("TypeID: the keys come back as Go strings, the text the database holds",
		err == nil && err2 == nil && len(users) == 3 && same(users, texts) &&
			pattern.MatchString(users[0]), err, err2, users)
	if len(users) != 3 {
		return ""
	}
	var name string
	err = conn.QueryRow(ctx, "SELECT name FROM go_users WHERE id = $1", users[1]).Scan(&name)
	check("TypeID: WHERE id = $1 with the text finds the user (the text is the URL id)",
		err == nil && name == "grace", err)
	pages, err := keysetPages[string](ctx, conn, "go_users", "id", 2)
	check("TypeID: keyset pages of 2 give every user once, in creation order",
		err == nil && pageSizes(pages) == "2,1" && same(flat(pages), users), err)

	orderID := "order_" + strings.TrimPrefix(users[1], "user_") // the same uuid, another prefix
	err = conn.QueryRow(ctx, "SELECT name FROM go_users WHERE id = $1", orderID).Scan(&name)
	check("TypeID: a TypeID of another prefix finds no user", errors.Is(err, pgx.ErrNoRows), err)
	var decoded pgtype.UUID
	err = conn.QueryRow(ctx, "SELECT idgen.try_typeid_to_uuid($1, 'user')", orderID).Scan(&decoded)
	check("TypeID: idgen.try_typeid_to_uuid($1, 'user') is NULL for it", err == nil && decoded.Status == pgtype.Null, err)
	_, err = conn.Exec(ctx, "INSERT INTO go_users (id, name) VALUES ($1, 'not a user')", orderID)
	check("TypeID: the CHECK refuses an order_ id as a user's key (23514)", sqlState(err) == "23514", err)
	return users[0]
}

// snowflakeKeys: a bigint column, DEFAULT idgen.snowflake(); int64 holds every id exactly.
func snowflakeKeys(ctx context.Context, conn *pgx.Conn) int64 {
	posts, err := column[int64](ctx, conn,
		"INSERT INTO go_posts (title) SELECT 'post ' || g FROM generate_series(1, 7) g RETURNING id")
	texts, err2 := column[string](ctx, conn, "SELECT id::text FROM go_posts ORDER BY title")
	exact := err == nil && err2 == nil && len(posts) == 7
	for i := 0; exact && i < 7; i++ {
		exact = posts[i] > 1<<53 && strconv.FormatInt(posts[i], 10) == texts[i]
	}
	check("Snowflake: the keys come back as int64, above 2^53, equal to id::text", exact, err, err2, posts, texts)
	if !exact {
		return 0
	}
	var asFloat float64
	err = conn.QueryRow(ctx, "SELECT id FROM go_posts WHERE id = $1", posts[0]).Scan(&asFloat)
	check("Snowflake: pgx refuses to scan the bigint into a float64 (cannot assign)",
		err != nil && strings.Contains(err.Error(), "cannot assign"), err)

	var urlID, title string
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric(id) FROM go_posts WHERE id = $1", posts[3]).Scan(&urlID)
	if err == nil {
		err = conn.QueryRow(ctx, "SELECT title FROM go_posts WHERE id = idgen.try_alphanumeric_to_bigint($1)",
			urlID).Scan(&title)
	}
	check("Snowflake: the 11-character URL id finds the post through idgen.try_alphanumeric_to_bigint($1)",
		err == nil && len(urlID) == 11 && title == "post 4", err, urlID)
	err = conn.QueryRow(ctx, "SELECT title FROM go_posts WHERE id = idgen.try_alphanumeric_to_bigint($1)",
		"not-an-id").Scan(&title)
	check("Snowflake: a malformed URL id finds nothing, without an error", errors.Is(err, pgx.ErrNoRows), err)

	// Trap: with an untyped $1, the server picks idgen.to_alphanumeric(text), and pgx cannot send an
	// int64 as text: the query fails in the client, before the server sees it.
	var encoded string
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric($1)", posts[3]).Scan(&encoded)
	check("trap: idgen.to_alphanumeric($1) with an int64 fails in pgx (cannot convert ... to Text)",
		err != nil && sqlState(err) == "" && strings.Contains(err.Error(), "to Text"), err)
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric($1::bigint)", posts[3]).Scan(&encoded)
	check("fix: idgen.to_alphanumeric($1::bigint) gives the post's URL id", err == nil && encoded == urlID, err)

	pages, err := keysetPages[int64](ctx, conn, "go_posts", "id", 3)
	check("Snowflake: keyset pages (WHERE id > $1 with the last int64) give every post once, in creation order",
		err == nil && pageSizes(pages) == "3,3,1" && same(flat(pages), posts), err)

	// JSON: `json:",string"` writes the int64 as a JSON string of its digits. A JSON number would be
	// exact in Go's output, but JavaScript's JSON.parse and Go's any read it into a float64 (53 bits
	// of mantissa), which changes Snowflake ids.
	type post struct {
		ID    int64  `json:"id,string"`
		Title string `json:"title"`
	}
	document, err := json.Marshal(post{ID: posts[0], Title: "post 1"})
	check(`Snowflake: json:",string" writes the key as a JSON string, the database's id::text`,
		err == nil && string(document) == `{"id":"`+texts[0]+`","title":"post 1"}`, err, string(document))
	changed := 0
	for i, id := range posts {
		number, _ := json.Marshal(map[string]int64{"id": id}) // {"id":516535435279732736}
		var read map[string]any
		if json.Unmarshal(number, &read) == nil && strconv.FormatFloat(read["id"].(float64), 'f', -1, 64) != texts[i] {
			changed++
		}
	}
	check("trap: as a JSON number, a float64 reader (JSON.parse, Go's any) changes the Snowflake ids", changed > 0)
	return posts[0]
}

// distributedIDKeys: an idgen.distributed_id column (numeric(28,0)), DEFAULT idgen.distributed_id().
// 28 digits are more than int64 holds: keep the key as the database's text, RETURNING id::text.
func distributedIDKeys(ctx context.Context, conn *pgx.Conn) string {
	invoices, err := column[string](ctx, conn,
		"INSERT INTO go_invoices (total) SELECT g * 10.25 FROM generate_series(1, 7) g RETURNING id::text")
	check("DistributedId: RETURNING id::text gives each key as a Go string of 28 digits",
		err == nil && len(invoices) == 7 && regexp.MustCompile(`^[0-9]{28}$`).MatchString(invoices[0]), err, invoices)
	if len(invoices) != 7 {
		return ""
	}
	byKey := "SELECT id FROM go_invoices WHERE id = $1" // $1: the key as a Go string
	var asString string
	err = conn.QueryRow(ctx, byKey, invoices[0]).Scan(&asString)
	check("trap: scanning the numeric id into a Go string fails (unable to assign to *string)",
		err != nil && strings.Contains(err.Error(), "unable to assign to *string"), err)
	var asFloat float64
	err = conn.QueryRow(ctx, byKey, invoices[0]).Scan(&asFloat)
	check("trap: scanning it into a float64 works, and silently rounds it to 17 significant digits",
		err == nil && strconv.FormatFloat(asFloat, 'f', -1, 64) != invoices[0], err)
	var asText pgtype.Text
	err = conn.QueryRow(ctx, byKey, invoices[0]).Scan(&asText)
	check("trap: scanning it into a pgtype.Text works, and silently gives numeric's binary bytes, not its digits",
		err == nil && asText.Status == pgtype.Present && asText.String != invoices[0], err)
	var asNumeric pgtype.Numeric
	var exact big.Rat
	err = conn.QueryRow(ctx, byKey, invoices[0]).Scan(&asNumeric)
	if err == nil {
		err = asNumeric.AssignTo(&exact)
	}
	check("fix: a pgtype.Numeric keeps every digit: AssignTo a big.Rat, whose RatString() is id::text",
		err == nil && exact.IsInt() && exact.RatString() == invoices[0], err, exact.RatString())
	encodedText, err := asNumeric.EncodeText(nil, nil)
	check("trap: pgtype.Numeric's own text (EncodeText) is not id::text: digits, then an exponent (e0, e4, ...)",
		err == nil && regexp.MustCompile(`^[0-9]+e[0-9]+$`).Match(encodedText), err, string(encodedText))

	var total string
	err = conn.QueryRow(ctx, "SELECT total::text FROM go_invoices WHERE id = $1", invoices[2]).Scan(&total)
	check("DistributedId: WHERE id = $1 with the key as a Go string finds the invoice", err == nil && total == "30.75", err)
	var urlID string
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric(id) FROM go_invoices WHERE id = $1", invoices[2]).Scan(&urlID)
	if err == nil {
		err = conn.QueryRow(ctx,
			"SELECT total::text FROM go_invoices WHERE id = idgen.try_alphanumeric_to_numeric($1)", urlID).Scan(&total)
	}
	check("DistributedId: the 16-character URL id finds the invoice through idgen.try_alphanumeric_to_numeric($1)",
		err == nil && len(urlID) == 16 && total == "30.75", err, urlID)
	err = conn.QueryRow(ctx, "SELECT total::text FROM go_invoices WHERE id = idgen.try_alphanumeric_to_numeric($1)",
		"not-an-id").Scan(&total)
	check("DistributedId: a malformed URL id finds nothing, without an error", errors.Is(err, pgx.ErrNoRows), err)

	// Trap: a Go string goes untyped, so the server takes idgen.to_alphanumeric(text), which
	// refuses it: text could mean any of the overloads' types.
	var encoded string
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric($1)", invoices[2]).Scan(&encoded)
	check("trap: idgen.to_alphanumeric($1) with the key as a Go string raises 42725", sqlState(err) == "42725", err)
	err = conn.QueryRow(ctx, "SELECT idgen.to_alphanumeric($1::numeric)", invoices[2]).Scan(&encoded)
	check("fix: idgen.to_alphanumeric($1::numeric) gives the invoice's URL id", err == nil && encoded == urlID, err)

	pages, err := keysetPages[string](ctx, conn, "go_invoices", "id::text", 3)
	check("DistributedId: keyset pages (WHERE id > $1 with the last id::text) give every invoice once, in creation order",
		err == nil && pageSizes(pages) == "3,3,1" && same(flat(pages), invoices), err)
	return invoices[0]
}

// receiptJSON: one JSON document with a key of each family, every key a JSON string, so any JSON
// reader keeps it exactly; each string is the database's id::text.
func receiptJSON(ctx context.Context, conn *pgx.Conn, order, payment pgtype.UUID, shipment, user string,
	post int64, invoice string) {
	type receipt struct {
		Order    pgtype.UUID `json:"order"`       // COMB: pgtype.UUID marshals as its text
		Payment  pgtype.UUID `json:"payment"`     // UUIDv7
		Shipment string      `json:"shipment"`    // ULID text
		User     string      `json:"user"`        // TypeID text
		Post     int64       `json:"post,string"` // Snowflake
		Invoice  string      `json:"invoice"`     // DistributedId, id::text
	}
	document, err := json.Marshal(receipt{order, payment, shipment, user, post, invoice})
	var read map[string]string // a JSON number would not decode into a string
	if err == nil {
		err = json.Unmarshal(document, &read)
	}
	var o, p, s, u, sf, d string // the database's text of each key
	if err == nil {
		err = conn.QueryRow(ctx, `SELECT
		  (SELECT id::text FROM go_orders WHERE id = $1), (SELECT id::text FROM go_payments WHERE id = $2),
		  (SELECT id::text FROM go_shipments WHERE id = $3), (SELECT id::text FROM go_users WHERE id = $4),
		  (SELECT id::text FROM go_posts WHERE id = $5), (SELECT id::text FROM go_invoices WHERE id = $6)`,
			order, payment, shipment, user, post, invoice).Scan(&o, &p, &s, &u, &sf, &d)
	}
	stored := map[string]string{"order": o, "payment": p, "shipment": s, "user": u, "post": sf, "invoice": d}
	check("JSON: a key of each family, all JSON strings, each the database's id::text digit for digit",
		err == nil && fmt.Sprint(read) == fmt.Sprint(stored), err, string(document))

	// Trap: rows.Values() gives pgx's own values (a uuid's [16]byte, an int64, a pgtype.Numeric),
	// and json.Marshal writes them as 16 numbers, a JSON number and pgtype's struct fields.
	var values, decoded []any
	rows, err := conn.Query(ctx, `SELECT o.id, p.id, i.id FROM go_orders o, go_posts p, go_invoices i
	  WHERE o.id = $1 AND p.id = $2 AND i.id = $3`, order, post, invoice)
	if err == nil {
		if rows.Next() {
			values, err = rows.Values()
		}
		rows.Close()
	}
	generic, _ := json.Marshal(values) // [[170,116,...],516535435279732736,{"Int":...,"Exp":0,...}]
	if err == nil {
		err = json.Unmarshal(generic, &decoded)
	}
	var isArray, isNumber, isObject bool
	if len(decoded) == 3 {
		_, isArray = decoded[0].([]any)
		_, isNumber = decoded[1].(float64)
		_, isObject = decoded[2].(map[string]any)
	}
	check("trap: json.Marshal(rows.Values()) writes the uuid as 16 numbers, the Snowflake id as a number, "+
		"the DistributedId as pgtype's struct", err == nil && isArray && isNumber && isObject, err, string(generic))
}

func main() {
	ctx := context.Background()
	// An empty connection string: pgx reads PGHOST, PGPORT, PGUSER, PGDATABASE as libpq does.
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		fmt.Printf("not ok - pgx: connect\n# %v\n", err)
		os.Exit(1)
	}
	_, err = conn.Exec(ctx, schema) // no arguments: the simple protocol, several statements at once
	check("the program's DDL creates the six tables, keys from idgen's generators", err == nil, err)
	if err == nil {
		order, payment := combAndUUIDv7Keys(ctx, conn)
		shipment := ulidKeys(ctx, conn)
		user := typeidKeys(ctx, conn)
		post := snowflakeKeys(ctx, conn)
		invoice := distributedIDKeys(ctx, conn)
		receiptJSON(ctx, conn, order, payment, shipment, user, post, invoice)
	}
	conn.Close(ctx)
	if failed > 0 {
		os.Exit(1)
	}
}
