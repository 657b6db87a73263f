"""Words of a field's or an input's name (and of a branch's value) as test data reads what a
value must be: an id or a reference (`report_id`, `store_no`), its shape rather than its
thing, a role in a kind (`from_station`), one end of a span (`depart_date`), a target an
action goes to (`channel_id`), a place in the world (`destination_city`), a person's name,
a day, a phone, what happened and where, and the state of a thing the person has or awaits.
They name fields in English; field names of a format (`name`, `body`) live with the format."""

from __future__ import annotations

from .. import words

#: The last word of a field named as the id of, or a reference to, the thing its first words
#: name (`report_id` -> `report`, `store_slug`, `claim_no`).
ID_TAILS = words(
    "en.field_name_words.id_tails",
    frozenset({"code", "id", "key", "no", "number", "ref", "reference", "slug"}),
    members=("id", "reference", "slug", "no"),
    non_members=("name", "type", "date"),
)

#: Words of a field whose value is a number the person reads out (a card or member number).
READ_OUT_NUMBERS = words(
    "en.field_name_words.read_out_numbers",
    frozenset({"code", "id", "no", "number"}),
    members=("number", "no"),
    non_members=("ref", "key"),
)

#: Words of a field name that say its shape, not what it is (`store_id` is a store).
SHAPE_WORDS = words(
    "en.field_name_words.shape_words",
    frozenset({"code", "has", "id", "is", "no", "num", "number", "ref"}),
    members=("num", "has"),
    non_members=("store", "name"),
)

#: Words of a field that names who was paid (`merchant`).
PAID = words(
    "en.field_name_words.paid",
    frozenset({"merchant", "payee", "supplier", "vendor"}),
    members=("merchant", "payee"),
    non_members=("amount", "payer"),
)

#: Words of a branch's value that speak of the state of a thing the person has
#: (`report_damaged`): only a thing that reached them arrived damaged.
HAD_STATES = words(
    "en.field_name_words.had_states",
    frozenset({
        "broken", "cracked", "damage", "damaged", "defective", "faulty", "torn",
    }),
    members=("damaged", "torn"),
    non_members=("missing", "lost"),
)  # fmt: skip

#: Words of a branch's value that speak of a thing the person is still waiting for
#: (`track`, `report_missing`, `change_delivery`): one already delivered needs none of it.
AWAITED = words(
    "en.field_name_words.awaited",
    frozenset({
        "delivery", "locate", "lost", "missing", "redeliver", "trace", "track",
    }),
    members=("track", "redeliver"),
    non_members=("damaged", "delivered"),
)  # fmt: skip

#: A field's first word that says which one of a kind it is: `from_station`, `to_station`.
ROLE_PREFIXES = words(
    "en.field_name_words.role_prefixes",
    frozenset({
        "alternative", "destination", "dropoff", "end", "from", "home", "nearest", "origin",
        "other", "pickup", "second", "source", "start", "target", "to",
    }),
    members=("from", "nearest"),
    non_members=("station", "via"),
)  # fmt: skip

#: Words of a field that asks what is wrong with something (not what happened to someone).
WRONG = words(
    "en.field_name_words.wrong",
    frozenset({"broken", "defect", "fault", "faulty", "wrong"}),
    members=("faulty", "defect"),
    non_members=("damage", "incident"),
)

#: Words of a skill that posts or announces a message the user gives (a channel, a board).
POSTS = words(
    "en.field_name_words.posts",
    frozenset({
        "announce", "announcement", "announces", "broadcast", "channel", "channels", "post",
        "posting", "posts",
    }),
    members=("announces", "channels"),
    non_members=("message", "send"),
)  # fmt: skip

#: Words of a field that is the text of a message (`message_text`, `announcement`).
MESSAGE_TEXT = words(
    "en.field_name_words.message_text",
    frozenset({"announcement", "message", "notice", "post"}),
    members=("notice", "post"),
    non_members=("text", "channel"),
)

#: Words of a field that asks what happened (not why someone calls, nor a note).
WHAT_HAPPENED = words(
    "en.field_name_words.what_happened",
    frozenset({"accident", "cause", "caused", "damage", "incident", "loss"}),
    members=("accident", "caused"),
    non_members=("reason", "note"),
)

#: Words of a field that asks where something happened.
WHERE_HAPPENED = words(
    "en.field_name_words.where_happened",
    frozenset({"location", "place", "where"}),
    members=("place", "where"),
    non_members=("when", "address"),
)

#: Words of a field for anything more the person wants on file.
MORE_ON_FILE = words(
    "en.field_name_words.more_on_file",
    frozenset({"additional", "extra", "further", "witness", "witnesses"}),
    members=("extra", "witnesses"),
    non_members=("note", "comment"),
)

#: Words of a date field's name that make it the start of a span (`override_start`,
#: `depart_date`).
SPAN_STARTS = words(
    "en.field_name_words.span_starts",
    frozenset({
        "begin", "checkin", "depart", "departure", "from", "outbound", "start",
    }),
    members=("depart", "checkin"),
    non_members=("end", "return"),
)  # fmt: skip

#: Words of a date field's name that make it the end of a span (`override_end`,
#: `return_date`, `check_out`).
SPAN_ENDS = words(
    "en.field_name_words.span_ends",
    frozenset({"checkout", "end", "return", "until"}),
    members=("until", "checkout"),
    non_members=("start", "from"),
)

#: The full word of a duration's short form.
TIME_UNITS = words(
    "en.field_name_words.time_units",
    {"min": "minute", "mins": "minute", "hr": "hour", "hrs": "hour"},
    members=("min", "hrs"),
    non_members=("h", "sec"),
)

#: A field's first word that names the tag a change moves to (`target_version`).
AHEAD = words(
    "en.field_name_words.ahead",
    frozenset({"new", "next", "target", "to"}),
    members=("target", "next"),
    non_members=("current", "old"),
)

#: Words of an input that is the person's own name (`firstName`, `name`).
PERSON_NAME = words(
    "en.field_name_words.person_name",
    frozenset({"family", "first", "full", "given", "last", "name"}),
    members=("given", "family"),
    non_members=("user", "nick"),
)

#: Words of an input that is a day (`dueDate`, `expiry`).
DAY_WORDS = words(
    "en.field_name_words.day_words",
    frozenset({"date", "day", "deadline", "due", "expires", "expiry", "until"}),
    members=("due", "expires"),
    non_members=("time", "hour"),
)

#: Words of an input that names a place of the business (`club`, `preferredStore`).
PLACE_NAMES = words(
    "en.field_name_words.place_names",
    frozenset({
        "branch", "clinic", "club", "gym", "location", "office", "shop", "site", "store", "studio",
    }),
    members=("club", "gym"),
    non_members=("city", "home"),
)  # fmt: skip

#: Words of a field's name that make it where an action goes (`channel_id`, `to_email`).
TARGET_WORDS = words(
    "en.field_name_words.target_words",
    frozenset({
        "channel", "chat", "destination", "email", "inbox", "mailbox", "recipient", "room",
        "thread", "to", "url", "webhook",
    }),
    members=("channel", "inbox"),
    non_members=("city", "name"),
)  # fmt: skip

#: Words of a field's name that make its value a place in the world (`destination_city`):
#: where a trip goes, never a target a team keeps for tests, so the user names a real one.
WORLD_PLACES = words(
    "en.field_name_words.world_places",
    frozenset({
        "airport", "city", "country", "region", "state", "station", "town", "venue",
    }),
    members=("airport", "venue"),
    non_members=("channel", "club"),
)  # fmt: skip

#: Words of a field that holds a phone number (`mobile`, `msisdn`).
PHONE = words(
    "en.field_name_words.phone",
    ("phone", "mobile", "msisdn"),
    members=("mobile", "msisdn"),
    non_members=("email", "number"),
)

#: Words and prefixes that turn an id into its opposite (`utter_order_not_placed`,
#: `unblock_card`, `is_ineligible`): two ids that differ only by one of them are two real,
#: opposite outcomes, never a typo of each other.
ID_NEGATIONS = words(
    "en.field_name_words.id_negations",
    frozenset({
        "cannot", "cant", "didnt", "dont", "fail", "failed", "failure", "isnt", "never", "no",
        "non", "none", "not", "without", "wont",
    }),
    members=("not", "cant"),
    non_members=("order", "is"),
)  # fmt: skip

#: Prefixes that turn an id into its opposite (`unblock_card`, `is_ineligible`).
ID_NEGATING_PREFIXES = words(
    "en.field_name_words.id_negating_prefixes",
    ("un", "non", "dis", "in", "im", "not"),
    members=("un", "dis"),
    non_members=("re", "pre"),
)
