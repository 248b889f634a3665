"""idgen from Django: keys the database generates, read back after each insert.

Django (3.2 here, Debian 12's) sends every field in an INSERT except an auto field. A key that
the database fills from its column DEFAULT is therefore declared as an auto field of the right
type (AutoFieldMixin), and db_returning makes Django read it back with RETURNING. The text keys
(idgen.ulid, idgen.typeid) are CharFields to Django whose column type is idgen's: the value is the
ULID or TypeID text, a str, in lookups too.
"""
import decimal
import json
import os
import re
import uuid

import django
from django.conf import settings

settings.configure(
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("PGDATABASE", "postgres"),
        "HOST": os.environ.get("PGHOST", ""),
        "PORT": os.environ.get("PGPORT", ""),
        "USER": os.environ.get("PGUSER", ""),
    }},
    INSTALLED_APPS=[],
)
django.setup()

from django.core.serializers.json import DjangoJSONEncoder  # noqa: E402
from django.db import IntegrityError, connection, models, transaction  # noqa: E402
from django.db.models.fields import AutoFieldMixin  # noqa: E402


class CombKey(AutoFieldMixin, models.UUIDField):
    """A uuid primary key that the column's DEFAULT idgen.comb() fills."""
    db_returning = True


class DistributedIdKey(AutoFieldMixin, models.DecimalField):
    """A 28-digit idgen.distributed_id primary key, filled by DEFAULT idgen.distributed_id()."""
    db_returning = True

    def __init__(self, *args, **kwargs):
        kwargs.update(max_digits=28, decimal_places=0)
        super().__init__(*args, **kwargs)

    def db_type(self, connection):
        return "idgen.distributed_id"


class UlidKey(AutoFieldMixin, models.CharField):
    """An idgen.ulid primary key, filled by DEFAULT idgen.ulid(): the 26-character ULID text."""
    db_returning = True
    empty_strings_allowed = False  # no key yet is None, not "" (which Django would insert)

    def __init__(self, *args, **kwargs):
        kwargs["max_length"] = 26
        super().__init__(*args, **kwargs)

    def db_type(self, connection):
        return "idgen.ulid"


class TypeIdKey(AutoFieldMixin, models.CharField):
    """An idgen.typeid primary key, filled by DEFAULT idgen.new_typeid('...'): the TypeID text."""
    db_returning = True
    empty_strings_allowed = False

    def __init__(self, *args, **kwargs):
        kwargs["max_length"] = 90  # a prefix of up to 63 characters, "_", 26 characters
        super().__init__(*args, **kwargs)

    def db_type(self, connection):
        return "idgen.typeid"


class Order(models.Model):
    id = CombKey(primary_key=True)
    customer = models.TextField()

    class Meta:
        app_label = "shop"
        db_table = "django_orders"


class Invoice(models.Model):
    id = DistributedIdKey(primary_key=True)
    total = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        app_label = "shop"
        db_table = "django_invoices"


class Shipment(models.Model):
    id = UlidKey(primary_key=True)
    parcel = models.IntegerField()

    class Meta:
        app_label = "shop"
        db_table = "django_shipments"


class User(models.Model):
    id = TypeIdKey(primary_key=True)
    name = models.TextField()

    class Meta:
        app_label = "shop"
        db_table = "django_users"


class TryAlphanumericToNumeric(models.Func):
    """idgen.try_alphanumeric_to_numeric(text): the id of a URL id, NULL for anything else."""
    function = "idgen.try_alphanumeric_to_numeric"
    output_field = models.DecimalField(max_digits=28, decimal_places=0)


def keyset_pages(queryset, size):
    """Every row of the queryset, a page at a time: WHERE id > the last id seen ORDER BY id LIMIT size."""
    pages = [list(queryset.order_by("pk")[:size])]
    while len(pages[-1]) == size:
        pages.append(list(queryset.filter(pk__gt=pages[-1][-1].pk).order_by("pk")[:size]))
    return pages


failed = 0


def check(description, passed):
    global failed
    print(("ok - " if passed else "not ok - ") + description)
    failed += 0 if passed else 1


# The migration: the tables, then the defaults (a migrations.RunSQL in a real project).
with connection.cursor() as cursor:
    cursor.execute("DROP TABLE IF EXISTS django_orders, django_invoices, django_shipments, django_users")
with connection.schema_editor() as editor:
    for model in (Order, Invoice, Shipment, User):
        editor.create_model(model)
with connection.cursor() as cursor:
    cursor.execute("ALTER TABLE django_orders ALTER id SET DEFAULT idgen.comb()")
    cursor.execute("ALTER TABLE django_invoices ALTER id SET DEFAULT idgen.distributed_id()")
    cursor.execute("ALTER TABLE django_shipments ALTER id SET DEFAULT idgen.ulid()")
    cursor.execute("ALTER TABLE django_users ALTER id SET DEFAULT idgen.new_typeid('user'), "
                   "ADD CHECK (idgen.typeid_prefix(id) = 'user')")

order = Order.objects.create(customer="ada")
check("Django: the COMB key is read back after the insert, as a uuid.UUID of version 4",
      isinstance(order.id, uuid.UUID) and order.id.version == 4)
with connection.cursor() as cursor:
    cursor.execute("SELECT idgen.comb_valid(%s)", [order.id])
    check("Django: the key is a COMB of this minute (idgen.comb_valid)", cursor.fetchone()[0])
check("Django: the row is found by its key", Order.objects.get(pk=order.id).customer == "ada")

invoice = Invoice.objects.create(total=decimal.Decimal("120.50"))
check("Django: the 28-digit key is read back as a decimal.Decimal with every digit",
      isinstance(invoice.id, decimal.Decimal) and len(str(invoice.id)) == 28)
with connection.cursor() as cursor:
    cursor.execute("SELECT id::text, idgen.to_alphanumeric(id) FROM django_invoices WHERE id = %s",
                   [invoice.id])
    sql_text, url_id = cursor.fetchone()
check("Django: it equals the stored value digit for digit", str(invoice.id) == sql_text)
check("Django: a float would not hold it", str(decimal.Decimal(float(invoice.id))) != sql_text)

found = Invoice.objects.filter(id=TryAlphanumericToNumeric(models.Value(url_id))).first()
check("Django: the short URL id finds the invoice", found is not None and found.id == invoice.id)
check("Django: a malformed URL id finds nothing, without an error",
      not Invoice.objects.filter(id=TryAlphanumericToNumeric(models.Value("not-an-id"))).exists())

document = json.dumps({"order": order.id, "invoice": invoice.id}, cls=DjangoJSONEncoder)
check("Django: DjangoJSONEncoder writes both keys as strings, the 28 digits exact",
      json.loads(document) == {"order": str(order.id), "invoice": sql_text})
try:
    json.dumps({"invoice": invoice.id})
    check("Django: plain json.dumps refuses a Decimal", False)
except TypeError:
    check("Django: plain json.dumps refuses a Decimal (so it cannot round it silently)", True)


shipments = [Shipment.objects.create(parcel=k) for k in range(7)]
with connection.cursor() as cursor:
    cursor.execute("SELECT idgen.to_ulid(id::uuid) FROM django_shipments ORDER BY parcel")
    ulid_texts = [row[0] for row in cursor.fetchall()]
check("Django: the ULID keys are read back as str, the 26-character text the database holds",
      [s.id for s in shipments] == ulid_texts
      and all(re.fullmatch(r"[0-7][0-9A-HJKMNP-TV-Z]{25}", t) for t in ulid_texts))
check("Django: a shipment is found by its ULID text",
      Shipment.objects.get(pk=shipments[3].id).parcel == 3)
pages = keyset_pages(Shipment.objects.all(), 3)
check("Django: keyset pages (pk__gt the last id, ordered by pk) give every shipment once, in order",
      [len(p) for p in pages] == [3, 3, 1] and [s.parcel for p in pages for s in p] == list(range(7)))

users = [User.objects.create(name=name) for name in ("ada", "grace", "linus")]
with connection.cursor() as cursor:
    cursor.execute("SELECT idgen.typeid('user', id::uuid) FROM django_users ORDER BY id")
    typeid_texts = [row[0] for row in cursor.fetchall()]
check("Django: the TypeID keys are read back as str, the text the database holds",
      [u.id for u in users] == typeid_texts
      and all(re.fullmatch(r"user_[0-7][0-9a-hjkmnp-tv-z]{25}", t) for t in typeid_texts))
check("Django: a user is found by its TypeID text", User.objects.get(pk=users[1].id).name == "grace")
pages = keyset_pages(User.objects.all(), 2)
check("Django: keyset pages of users give every user once, in order",
      [len(p) for p in pages] == [2, 1] and [u.name for p in pages for u in p] == ["ada", "grace", "linus"])
order_id = "order_" + users[1].id.split("_")[1]  # the same uuid, another prefix
check("Django: a TypeID of another prefix finds no user", not User.objects.filter(pk=order_id).exists())
try:
    with transaction.atomic():
        User.objects.create(id=order_id, name="not a user")
    check("Django: the CHECK refuses an order_ id as a user's key", False)
except IntegrityError:
    check("Django: the CHECK refuses an order_ id as a user's key", True)

raise SystemExit(1 if failed else 0)
