"""What a field's name and description say about the value it takes
(`evalcore.testdata._values`): a date, a time, a sum of money, a phone, an address, an id,
a person's or a thing's name, the examples and the numeric span it gives.

Names are snake_case words (`visit_date`, `colleague_name`) and are matched lower case;
descriptions are prose. Each pattern decides which kind of value a drafted user says, so
a miss means the user says the wrong kind of thing (a name for a date, filler for an id).
"""

from __future__ import annotations

import re

from .. import phrase

# --- descriptions: dates and times ------------------------------------------------------

#: The ISO day format, by its mask or its name (the other masks, `MM/DD/YYYY`..., are
#: notation, not words, and stay with their formats).
ISO_DATE = phrase(
    "en.field_specs.iso_date",
    r"\bYYYY-MM-DD\b|\bISO[ -]?8601\b|\bISO date",
    re.I,
    matches=("Day of travel as YYYY-MM-DD", "An ISO date for the visit"),
    misses=("Day of travel as MM/DD/YYYY", "The iso-standard paper size"),
)
#: A description that allows a day said relative to today.
RELATIVE_DAY = phrase(
    "en.field_specs.relative_day",
    r"\b(yesterday|today|last (?:week|night)|relative)\b",
    re.I,
    matches=("When it happened, e.g. yesterday", "Relative dates are fine"),
    misses=("The date of the visit", "Relatives of the patient"),
)
#: "dob": a date of birth (the text lower case).
BIRTH_DATE = phrase(
    "en.field_specs.birth_date",
    r"\bdob\b",
    matches=("your dob", "dob of the policy holder"),
    misses=("doberman breed", "the date of the visit"),
)
#: A day that lies ahead: a booking, an appointment, a start (the text lower case).
DAY_AHEAD = phrase(
    "en.field_specs.day_ahead",
    r"\b(?:next|upcoming|preferred|future|start|check-?in|appointment|book)",
    matches=("preferred appointment day", "check-in date", "booking date"),
    misses=("date of the incident", "when the parcel was sent"),
)
#: A field name that holds a date (`visit_date`, `when`).
DATE_NAME = phrase(
    "en.field_specs.date_name",
    r"(?:^|_)(?:date|day|dob|birthday|when)(?:_|$)",
    matches=("visit_date", "when", "birthday_of_child"),
    misses=("update_reason", "days_left"),
)
#: The word "date" in a description.
DATE_WORD = phrase(
    "en.field_specs.date_word",
    r"\bdate\b",
    re.I,
    matches=("The Date of travel", "date"),
    misses=("Updated reason", "A dated invoice"),
)
#: The word "date" in a field name (lower case, underscores kept: only a bare `date`).
DATE_IN_NAME = phrase(
    "en.field_specs.date_in_name",
    r"\bdate\b",
    matches=("date", "start date"),
    misses=("visit_date", "update"),
)
#: An id's words in a field name read with spaces (`booking reference`): a date it is not.
ID_WORDS = phrase(
    "en.field_specs.id_words",
    r"\b(?:id|number|reference)\b",
    matches=("booking reference", "order id"),
    misses=("identity check", "numbered list"),
)
#: The word "time" (a time of day) in a description, lower case.
TIME_WORD = phrase(
    "en.field_specs.time_word",
    r"\btime\b",
    matches=("preferred time of day", "time"),
    misses=("sometimes late", "timeline of events"),
)

# --- descriptions: examples, numbers, money -----------------------------------------------

#: An example a description gives: a quoted one whole, to its closing quote ('e.g. "late, and the
#: box was torn"' is one example, its comma part of it), else up to the
#: first comma.
EXAMPLE = phrase(
    "en.field_specs.example",
    r"(?:for\s+example|e\.g\.|such\s+as|like)\s*,?\s*(?P<q>[\"“])?'?"
    r"(?P<text>(?(q)[^\"”]+|[^\"”'),;]+))",
    re.I,
    matches=("A colour, e.g. red or blue", 'A reason such as "wrong size"'),
    misses=("The city the parcel goes to.", "The reason for the return"),
)
#: A number in a description, and where one must end (not a date, a share or a version).
NUMBER = r"(\d+(?:\.\d+)?)"
NUMBER_END = r"(?![\w/%-]|\.\d)"
#: "0 to 200", "1-5", "between 1 and 10": the span a number field takes.
SPAN = phrase(
    "en.field_specs.span",
    rf"(?:\bbetween\s+{NUMBER}\s+and\s+{NUMBER}"
    rf"|(?<![\w./-]){NUMBER}\s*(?:to|through|[-–])\s*{NUMBER}{NUMBER_END})",
    re.I,
    matches=("A score between 1 and 10", "Guests, 1 to 8", "Rating 1-5"),
    misses=("Room 12, floor 3", "Due 2026-01-05"),
)
#: A sum of money (the text of a field's name and description).
MONEY = phrase(
    "en.field_specs.money",
    r"amount|price|cost|fee|charge|total|pay|budget|salary|refund|spend|usd|eur|gbp|dollar|"
    r"damage|estimate|repair",
    re.I,
    matches=("Refund amount in USD", "estimated repair cost"),
    misses=("The city of delivery", "number of guests"),
)
#: A sum that runs large (a repair, a loss, a salary) rather than a fee.
LARGE_SUM = phrase(
    "en.field_specs.large_sum",
    r"damage|repair|estimate|loss|salary|budget|rent",
    re.I,
    matches=("estimated repair cost", "Monthly rent"),
    misses=("refund amount", "booking fee"),
)
#: The word "year" in a number field's text (lower case).
YEAR_WORD = phrase(
    "en.field_specs.year_word",
    r"\byear\b",
    matches=("the model year", "year"),
    misses=("years on the job", "yearly total"),
)
#: The word "age" in a number field's text (lower case).
AGE_WORD = phrase(
    "en.field_specs.age_word",
    r"\bage\b",
    matches=("the patient's age", "age"),
    misses=("page count", "average spend"),
)
#: The word "number" in a field's text (lower case): digits alone where nothing shapes it.
NUMBER_WORD = phrase(
    "en.field_specs.number_word",
    r"\bnumber\b",
    matches=("the five-digit client number", "number"),
    misses=("numbered list", "a phone"),
)
#: A secret the user types as digits: a pin or a code (lower case).
SECRET_DIGITS = phrase(
    "en.field_specs.secret_digits",
    r"pin|code|passcode",
    matches=("the four-digit pin", "one-time passcode"),
    misses=("the customer's city", "the reason for the call"),
)

# --- descriptions: phone, e-mail, postcode ------------------------------------------------

#: A description of a number to call or text: "The number the vet calls back, +1 and ten
#: digits", "Mobile to text the code to".
PHONE_WORDS = phrase(
    "en.field_specs.phone_words",
    r"\b(?:tele)?phone\b|\bmobile\b|\bnumber\b[^.]{0,40}\bcalls?\s+(?:\w+\s+)?back\b",
    re.I,
    matches=("Mobile to text the code to", "The number the vet calls back", "Telephone"),
    misses=("The order number", "Phones sold this week"),
)
#: An e-mail address asked for in a description.
EMAIL_WORD = phrase(
    "en.field_specs.email_word",
    r"\be-?mail\b",
    re.I,
    matches=("An email address or phone number to reply to", "Your E-mail"),
    misses=("A voicemail number", "Mailing address"),
)
#: A postcode asked for with an address (description, or a name read with spaces).
POSTCODE = phrase(
    "en.field_specs.postcode",
    r"\b(?:post(?:al)?\s?codes?|zip(?:\s?codes?)?)\b",
    re.I,
    matches=("Address with postcode", "zip code", "Postal code"),
    misses=("Post office box", "zipper size"),
)

# --- field names (lower case) -------------------------------------------------------------

#: A name field about someone other than the user (`colleague_name`, `contact_name`).
OTHER_PERSON = phrase(
    "en.field_specs.other_person",
    r"(?:^|_)(?:co_?worker|colleague|contact|recipient|beneficiary|partner|friend|guest|"
    r"visitor|other|emergency|manager|supervisor|technician|prescriber|doctor)_",
    matches=("colleague_name", "recipient_phone", "other_name"),
    misses=("customer_name", "first_name"),
)
#: A name field about a thing, not a person (`product_`, `other_company_`, the part
#: before `name`): its value comes from the description's example or the other rules.
THING_NAME = phrase(
    "en.field_specs.thing_name",
    r"(?:^|_)(?:drug|medicine|medication|pharmacy|company|business|shop|store|product|"
    r"project|event|team|file|vessel|ship|street|venue|site|room|course|plan|item|brand|"
    r"device|app|school|hospital|clinic|practice|bank|branch)(?:_|$)",
    matches=("product_", "other_company_", "venue"),
    misses=("customer_", "first_", "shipping_"),
)
#: A name field about an animal (`animal_`, `pet_`): a pet's name.
PET_NAME = phrase(
    "en.field_specs.pet_name",
    r"(?:^|_)(?:animal|pet|dog|cat|horse|puppy|kitten)(?:_|$)",
    matches=("pet_", "dog", "your_cat_"),
    misses=("owner_", "category_", "petrol_"),
)
#: A field name that holds an e-mail address.
EMAIL_NAME = phrase(
    "en.field_specs.email_name",
    r"e-?mail",
    matches=("contact_email", "email"),
    misses=("contact_phone", "mail_room"),
)
#: A field name that holds a phone number.
PHONE_NAME = phrase(
    "en.field_specs.phone_name",
    r"phone|mobile|call_?back",
    matches=("callback_number", "mobile", "phone_number"),
    misses=("contact_email", "call_reason"),
)
#: A field name with "name" anywhere in it (an e-mail description on it is the name's).
NAME_IN_NAME = phrase(
    "en.field_specs.name_in_name",
    r"name",
    matches=("full_name", "username"),
    misses=("contact_email", "nominee"),
)
#: A field name that is a name (`customer_name`, `full_name`, `name`).
NAME_FIELD = phrase(
    "en.field_specs.name_field",
    r"(?:^|_)(?:full_)?name$",
    matches=("customer_name", "full_name", "name"),
    misses=("username", "name_of_pet"),
)
#: A field name that holds an id of some kind (any of its words, anywhere).
ID_IN_NAME = phrase(
    "en.field_specs.id_in_name",
    r"id|number|reference|code|ref|no",
    matches=("ticket_ref", "invoice_no", "card_id"),
    misses=("city", "amount"),
)
#: A field name that holds an address.
ADDRESS_NAME = phrase(
    "en.field_specs.address_name",
    r"address",
    matches=("billing_address", "address"),
    misses=("city", "street_name"),
)
#: A field name that holds a city or town.
CITY_NAME = phrase(
    "en.field_specs.city_name",
    r"city|town",
    matches=("home_town", "city"),
    misses=("country", "region"),
)
#: A field name that ends in an id's word (`order_id`, `booking_reference`).
ID_NAME = phrase(
    "en.field_specs.id_name",
    r"(?:^|_)(?:id|number|reference|ref|code)$",
    matches=("ticket_reference", "order_id", "code"),
    misses=("reference_note", "zipcode", "paid"),
)
