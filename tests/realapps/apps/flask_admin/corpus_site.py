# ruff: noqa: RUF012  (Flask-Admin views are configured with class-level lists and dicts, as its docs do)
"""The deployer's Flask-Admin site: a field office's customers, projects and invoices behind a Flask-Login sign-in.

Run: ``python corpus_site.py DATABASE PORT`` (sqlite file, loopback port); ``python corpus_site.py --seed DATABASE``
creates and fills the database. One log line per request on stdout: ``REQ <method> <path> <status>``.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
from urllib.parse import urlsplit

from flask import Flask, redirect, render_template_string, request, url_for
from flask_admin import Admin, AdminIndexView, expose
from flask_admin.contrib.sqla import ModelView
from flask_admin.model.form import InlineFormAdmin
from flask_admin.theme import Bootstrap4Theme
from flask_login import LoginManager, UserMixin, current_user, login_required, login_user, logout_user
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)

customer_tags = db.Table(
    "customer_tags",
    db.Column("customer_id", db.ForeignKey("customer.id"), primary_key=True),
    db.Column("tag_id", db.ForeignKey("tag.id"), primary_key=True),
)


class User(db.Model, UserMixin):
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(db.String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(db.String(200))


class Tag(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(db.String(60), unique=True)

    def __str__(self) -> str:
        return self.name


class Customer(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(db.String(120), unique=True)
    email: Mapped[str] = mapped_column(db.String(120))
    city: Mapped[str | None] = mapped_column(db.String(80))
    tags = relationship(Tag, secondary=customer_tags, order_by=Tag.name)

    def __str__(self) -> str:
        return self.name


class Project(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(db.String(120))
    customer_id: Mapped[int] = mapped_column(db.ForeignKey("customer.id"))
    customer = relationship(Customer)
    starts_at: Mapped[dt.datetime | None] = mapped_column()
    billable: Mapped[bool] = mapped_column(default=True)

    def __str__(self) -> str:
        return self.name


class Invoice(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    reference: Mapped[str] = mapped_column(db.String(40), unique=True)
    customer_id: Mapped[int] = mapped_column(db.ForeignKey("customer.id"))
    customer = relationship(Customer)
    issued_at: Mapped[dt.datetime | None] = mapped_column()
    lines = relationship("InvoiceLine", back_populates="invoice", cascade="all, delete-orphan")

    def __str__(self) -> str:
        return self.reference


class InvoiceLine(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    invoice_id: Mapped[int] = mapped_column(db.ForeignKey("invoice.id"))
    invoice = relationship(Invoice, back_populates="lines")
    description: Mapped[str] = mapped_column(db.String(200))
    quantity: Mapped[int] = mapped_column(default=1)


class SignedInOnly:
    """Admin pages for signed-in staff; anyone else is sent to the sign-in page and back."""

    def is_accessible(self) -> bool:
        return bool(current_user.is_authenticated)

    def inaccessible_callback(self, name: str, **kwargs: object):
        return redirect(url_for("login", next=request.full_path))


class OfficeHome(SignedInOnly, AdminIndexView):
    @expose("/")
    def index(self):
        return self.render("admin/index.html")


class StaffView(SignedInOnly, ModelView):
    can_export = True
    export_types = ["csv"]
    page_size = 20


class CustomerView(StaffView):
    column_list = ["name", "email", "city", "tags"]
    column_searchable_list = ["name", "email", "city"]
    column_default_sort = "name"
    form_columns = ["name", "email", "city", "tags"]
    column_export_list = ["name", "email", "city"]


class ProjectView(StaffView):
    column_list = ["name", "customer", "starts_at", "billable"]
    column_searchable_list = ["name"]
    form_columns = ["name", "customer", "starts_at", "billable"]
    form_ajax_refs = {"customer": {"fields": ["name"], "page_size": 10, "minimum_input_length": 1}}
    column_labels = {"starts_at": "Starts at"}


class InvoiceView(StaffView):
    column_list = ["reference", "customer", "issued_at"]
    column_searchable_list = ["reference"]
    form_columns = ["reference", "customer", "issued_at"]
    form_ajax_refs = {"customer": {"fields": ["name"], "page_size": 10, "minimum_input_length": 1}}
    inline_models = [InlineFormAdmin(InvoiceLine, form_columns=["id", "description", "quantity"])]
    column_labels = {"issued_at": "Issued at"}


LOGIN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in · Field office</title></head>
<body><main>
<h1>Field office</h1>
{% if error %}<p role="alert">{{ error }}</p>{% endif %}
<form method="post">
  <p><label for="username">Username</label> <input id="username" name="username" autocomplete="username"></p>
  <p><label for="password">Password</label>
     <input id="password" name="password" type="password" autocomplete="current-password"></p>
  <p><input id="remember" name="remember" type="checkbox" value="y"> <label for="remember">Remember me</label></p>
  <p><button type="submit">Sign in</button></p>
</form>
</main></body></html>
"""


def create_app(database: str) -> Flask:
    app = Flask(__name__)
    app.config.update(SECRET_KEY="corpus-flask-admin-secret", SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}",
                      REMEMBER_COOKIE_DURATION=dt.timedelta(days=14))
    db.init_app(app)
    logins = LoginManager(app)
    logins.login_view = "login"

    @logins.user_loader
    def load_user(user_id: str) -> User | None:
        return db.session.get(User, int(user_id))

    @app.route("/login", methods=["GET", "POST"])
    def login():
        error = None
        if request.method == "POST":
            user = db.session.execute(db.select(User).filter_by(username=request.form.get("username", ""))).scalar()
            if user and check_password_hash(user.password_hash, request.form.get("password", "")):
                login_user(user, remember=request.form.get("remember") == "y")
                target = request.args.get("next") or ""
                return redirect(target if target.startswith("/") and not urlsplit(target).netloc else "/admin/")
            error = "Wrong username or password."
        return render_template_string(LOGIN_PAGE, error=error)

    @app.route("/logout")
    @login_required
    def logout():
        logout_user()
        return redirect(url_for("login"))

    @app.route("/")
    def home():
        return redirect("/admin/")

    @app.after_request
    def log_request(response):
        print(f"REQ {request.method} {request.full_path.rstrip('?')} {response.status_code}", flush=True)
        return response

    admin = Admin(app, name="Field office", index_view=OfficeHome(), theme=Bootstrap4Theme())
    admin.add_view(CustomerView(Customer, db))
    admin.add_view(ProjectView(Project, db))
    admin.add_view(InvoiceView(Invoice, db))
    admin.add_view(StaffView(Tag, db))
    return app


CUSTOMERS = [
    ("Adatum Corporation", "Lyon"), ("Alpine Ski House", "Innsbruck"), ("Blue Yonder Airlines", "Seattle"),
    ("Coho Winery", "Napa"), ("Contoso Pharmaceuticals", "Basel"), ("Fabrikam Inc", "Redmond"),
    ("Fourth Coffee", "Portland"), ("Humongous Insurance", "Hartford"), ("Litware Inc", "Austin"),
    ("Lucerne Publishing", "Lucerne"), ("Margie's Travel", "Dublin"), ("Northwind Traders", "Oslo"),
    ("Northwind Logistics", "Bergen"), ("Proseware Inc", "Denver"), ("Relecloud", "Dublin"),
    ("Southridge Video", "Leeds"), ("Tailspin Toys", "Toulouse"), ("Tailwind Traders", "Lisbon"),
    ("Trey Research", "Boston"), ("Wide World Importers", "Rotterdam"), ("Wingtip Toys", "Ghent"),
    ("Woodgrove Bank", "Zurich"), ("VanArsdel Ltd", "Utrecht"), ("Graphic Design Institute", "Milan"),
]
TAGS = ["Conference lead", "Newsletter", "Partner", "Q4 renewal", "Referral", "Trial"]
STAFF = ("office", "Corpus-office-2024")


def seed(database: str) -> None:
    app = create_app(database)
    with app.app_context():
        db.create_all()
        db.session.add(User(username=STAFF[0], password_hash=generate_password_hash(STAFF[1])))
        tags = [Tag(name=name) for name in TAGS]
        db.session.add_all(tags)
        customers = []
        for i, (name, city) in enumerate(CUSTOMERS):
            slug = "".join(c for c in name.lower() if c.isalnum())[:14]
            customers.append(Customer(name=name, email=f"office@{slug}.example", city=city,
                                      tags=[tags[i % len(tags)]] if i % 3 else []))
        db.session.add_all(customers)
        db.session.add_all([
            Project(name="Warehouse audit", customer=customers[5], starts_at=dt.datetime(2025, 3, 3, 9, 0)),
            Project(name="Loyalty app", customer=customers[6], starts_at=dt.datetime(2025, 4, 14, 10, 30)),
        ])
        db.session.add_all([
            Invoice(reference="INV-2001", customer=customers[3], issued_at=dt.datetime(2025, 2, 1, 12, 0),
                    lines=[InvoiceLine(description="Cellar survey", quantity=1)]),
            Invoice(reference="INV-2002", customer=customers[9], issued_at=dt.datetime(2025, 2, 17, 9, 15),
                    lines=[InvoiceLine(description="Proof reading", quantity=12)]),
        ])
        db.session.commit()


def main(argv: list[str]) -> None:
    if argv[:1] == ["--seed"]:
        seed(argv[1])
        return
    database, port = argv
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # our own REQ lines say what it would
    create_app(database).run(host="127.0.0.1", port=int(port), debug=False, use_reloader=False, threaded=True)


if __name__ == "__main__":
    main(sys.argv[1:])
