"""idgen from SQLAlchemy (1.4 here, Debian 12's): keys the database generates.

server_default puts the idgen call in the column's DEFAULT; SQLAlchemy then leaves the key out of
the INSERT and reads it back with RETURNING. The 28-digit key's column has idgen's type
idgen.distributed_id (a numeric domain), whose values psycopg2 hands over as decimal.Decimal.
"""
import decimal
import json
import uuid

from sqlalchemy import Column, Numeric, Text, create_engine, func, select, text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Session, declarative_base
from sqlalchemy.types import UserDefinedType

Base = declarative_base()


class DistributedId(UserDefinedType):
    """The column type idgen.distributed_id: numeric(28,0), never negative."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "idgen.distributed_id"


class Order(Base):
    __tablename__ = "sqlalchemy_orders"
    id = Column(UUID(as_uuid=True), primary_key=True, server_default=text("idgen.comb()"))
    customer = Column(Text, nullable=False)


class Invoice(Base):
    __tablename__ = "sqlalchemy_invoices"
    id = Column(DistributedId(), primary_key=True, server_default=text("idgen.distributed_id()"))
    total = Column(Numeric(12, 2), nullable=False)


failed = 0


def check(description, passed):
    global failed
    print(("ok - " if passed else "not ok - ") + description)
    failed += 0 if passed else 1


# postgresql:// with no host: psycopg2 (libpq) takes the server from PGHOST, PGPORT, PGUSER.
engine = create_engine("postgresql+psycopg2://", future=True)
Base.metadata.drop_all(engine)
Base.metadata.create_all(engine)

with Session(engine, future=True) as session:
    order = Order(customer="ada")
    session.add(order)
    session.flush()
    check("SQLAlchemy: the COMB key is read back after the insert, as a uuid.UUID of version 4",
          isinstance(order.id, uuid.UUID) and order.id.version == 4)
    check("SQLAlchemy: the key is a COMB of this minute (idgen.comb_valid)",
          session.scalar(select(func.idgen.comb_valid(order.id))))
    check("SQLAlchemy: the row is found by its key", session.get(Order, order.id).customer == "ada")

    invoice = Invoice(total=decimal.Decimal("120.50"))
    session.add(invoice)
    session.flush()
    check("SQLAlchemy: the 28-digit key is read back as a decimal.Decimal with every digit",
          isinstance(invoice.id, decimal.Decimal) and len(str(invoice.id)) == 28)
    sql_text, url_id = session.execute(
        select(text("id::text"), func.idgen.to_alphanumeric(Invoice.id))
        .where(Invoice.id == invoice.id)).one()
    check("SQLAlchemy: it equals the stored value digit for digit", str(invoice.id) == sql_text)

    by_url = select(Invoice).where(Invoice.id == func.idgen.try_alphanumeric_to_numeric(url_id))
    found = session.scalars(by_url).first()
    check("SQLAlchemy: the short URL id finds the invoice", found is invoice)
    nothing = select(Invoice).where(Invoice.id == func.idgen.try_alphanumeric_to_numeric("not-an-id"))
    check("SQLAlchemy: a malformed URL id finds nothing, without an error",
          session.scalars(nothing).first() is None)

    document = json.dumps({"order": order.id, "invoice": invoice.id}, default=str)
    check("SQLAlchemy: json.dumps(default=str) writes both keys as strings, the 28 digits exact",
          json.loads(document) == {"order": str(order.id), "invoice": sql_text})
    session.commit()

raise SystemExit(1 if failed else 0)
