"""idgen from Django: keys the database generates, read back after each insert.

Django (3.2 here, Debian 12's) sends every field in an INSERT except an auto field. A key that
the database fills from its column DEFAULT is therefore declared as an auto field of the right
type (AutoFieldMixin), and db_returning makes Django read it back with RETURNING.
"""
import decimal
import json
import os
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
from django.db import connection, models  # noqa: E402
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


class TryAlphanumericToNumeric(models.Func):
    """idgen.try_alphanumeric_to_numeric(text): the id of a URL id, NULL for anything else."""
    function = "idgen.try_alphanumeric_to_numeric"
    output_field = models.DecimalField(max_digits=28, decimal_places=0)


failed = 0


def check(description, passed):
    global failed
    print(("ok - " if passed else "not ok - ") + description)
    failed += 0 if passed else 1


# The migration: the tables, then the defaults (a migrations.RunSQL in a real project).
with connection.cursor() as cursor:
    cursor.execute("DROP TABLE IF EXISTS django_orders, django_invoices")
with connection.schema_editor() as editor:
    editor.create_model(Order)
    editor.create_model(Invoice)
with connection.cursor() as cursor:
    cursor.execute("ALTER TABLE django_orders ALTER id SET DEFAULT idgen.comb()")
    cursor.execute("ALTER TABLE django_invoices ALTER id SET DEFAULT idgen.distributed_id()")

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

raise SystemExit(1 if failed else 0)
