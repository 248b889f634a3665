"""idgen from SQLAlchemy (1.4 here, Debian 12's): keys the database generates.

server_default puts the idgen call in the column's DEFAULT; SQLAlchemy then leaves the key out of
the INSERT and reads it back with RETURNING. The 28-digit key's column has idgen's type
idgen.distributed_id (a numeric domain), whose values psycopg2 hands over as decimal.Decimal.
The text keys' columns have idgen's types idgen.ulid and idgen.typeid, whose values psycopg2 hands
over as str: the ULID or TypeID text, which is also what lookups compare with.
"""
import decimal
import json
import re
import uuid

from sqlalchemy import CheckConstraint, Column, Integer, Numeric, Text, create_engine, func, select, text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, declarative_base
from sqlalchemy.types import UserDefinedType

Base = declarative_base()


class DistributedId(UserDefinedType):
    """The column type idgen.distributed_id: numeric(28,0), never negative."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "idgen.distributed_id"


class Ulid(UserDefinedType):
    """The column type idgen.ulid: 16 bytes, read and written as the 26-character ULID text."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "idgen.ulid"


class TypeId(UserDefinedType):
    """The column type idgen.typeid: a uuid and its prefix, read and written as the TypeID text."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "idgen.typeid"


class Order(Base):
    __tablename__ = "sqlalchemy_orders"
    id = Column(UUID(as_uuid=True), primary_key=True, server_default=text("idgen.comb()"))
    customer = Column(Text, nullable=False)


class Invoice(Base):
    __tablename__ = "sqlalchemy_invoices"
    id = Column(DistributedId(), primary_key=True, server_default=text("idgen.distributed_id()"))
    total = Column(Numeric(12, 2), nullable=False)


class Shipment(Base):
    __tablename__ = "sqlalchemy_shipments"
    id = Column(Ulid(), primary_key=True, server_default=text("idgen.ulid()"))
    parcel = Column(Integer, nullable=False)


class User(Base):
    __tablename__ = "sqlalchemy_users"
    __table_args__ = (CheckConstraint("idgen.typeid_prefix(id) = 'user'"),)
    id = Column(TypeId(), primary_key=True, server_default=text("idgen.new_typeid('user')"))
    name = Column(Text, nullable=False)


def keyset_pages(session, model, size):
    """Every row of the table, a page at a time: WHERE id > the last id seen ORDER BY id LIMIT size."""
    pages = [session.scalars(select(model).order_by(model.id).limit(size)).all()]
    while len(pages[-1]) == size:
        pages.append(session.scalars(
            select(model).where(model.id > pages[-1][-1].id).order_by(model.id).limit(size)).all())
    return pages


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

    shipments = [Shipment(parcel=k) for k in range(7)]
    session.add_all(shipments)
    session.flush()
    ulid_texts = session.scalars(
        select(func.idgen.to_ulid(text("id::uuid"))).select_from(Shipment).order_by(Shipment.parcel)).all()
    check("SQLAlchemy: the ULID keys are read back as str, the 26-character text the database holds",
          [s.id for s in shipments] == ulid_texts
          and all(re.fullmatch(r"[0-7][0-9A-HJKMNP-TV-Z]{25}", t) for t in ulid_texts))
    users = [User(name=name) for name in ("ada", "grace", "linus")]
    session.add_all(users)
    session.flush()
    typeid_texts = session.scalars(
        select(func.idgen.typeid("user", text("id::uuid"))).select_from(User).order_by(User.id)).all()
    check("SQLAlchemy: the TypeID keys are read back as str, the text the database holds",
          [u.id for u in users] == typeid_texts
          and all(re.fullmatch(r"user_[0-7][0-9a-hjkmnp-tv-z]{25}", t) for t in typeid_texts))
    session.commit()

with Session(engine, future=True) as session:  # a new session: get() asks the database
    check("SQLAlchemy: a shipment is found by its ULID text", session.get(Shipment, ulid_texts[3]).parcel == 3)
    pages = keyset_pages(session, Shipment, 3)
    check("SQLAlchemy: keyset pages (id > the last id, ordered by id) give every shipment once, in order",
          [len(p) for p in pages] == [3, 3, 1] and [s.parcel for p in pages for s in p] == list(range(7)))
    check("SQLAlchemy: a user is found by its TypeID text", session.get(User, typeid_texts[1]).name == "grace")
    pages = keyset_pages(session, User, 2)
    check("SQLAlchemy: keyset pages of users give every user once, in order",
          [len(p) for p in pages] == [2, 1] and [u.name for p in pages for u in p] == ["ada", "grace", "linus"])
    order_id = "order_" + typeid_texts[1].split("_")[1]  # the same uuid, another prefix
    check("SQLAlchemy: a TypeID of another prefix finds no user", session.get(User, order_id) is None)
    session.add(User(id=order_id, name="not a user"))
    try:
        session.flush()
        check("SQLAlchemy: the CHECK refuses an order_ id as a user's key", False)
    except IntegrityError:
        check("SQLAlchemy: the CHECK refuses an order_ id as a user's key", True)
        session.rollback()

raise SystemExit(1 if failed else 0)
