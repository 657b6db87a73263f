"""The facts of one case come from one person's records: a shift, a prescription or an order
the case names is the caller's own, the caller is someone who holds such a record, and a
coworker the caller names is another person of the same file (with that person's id).

Before, only a seeded phone's caller had their records followed: a signed-in employee was
seeded by id, yet the shift the case traded was drawn from the whole file (a colleague's
shift, or one at another store), the caller drawn for a swap could be a manager with no
shift at all, and the coworker was an invented first name with an invented partner number.
"""

from __future__ import annotations

from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder, session_person

STAFF = (
    {"employee_id": "E101", "first_name": "Maya", "last_name": "Ortiz", "role": "barista",
     "home_store": "S-1"},
    {"employee_id": "E102", "first_name": "Theo", "last_name": "Brandt", "role": "lead",
     "home_store": "S-1"},
    {"employee_id": "E103", "first_name": "Grace", "last_name": "Liu", "role": "manager",
     "home_store": "S-1"},
    {"employee_id": "E104", "first_name": "Sam", "last_name": "Wu", "role": "barista",
     "home_store": "S-2"},
)  # fmt: skip
SHIFTS = (
    {"shift_id": "SH-1", "store": "S-1", "employee_id": "E101"},
    {"shift_id": "SH-2", "store": "S-1", "employee_id": "E102"},
    {"shift_id": "SH-3", "store": "S-1", "employee_id": "E102"},
    {"shift_id": "SH-4", "store": "S-2", "employee_id": "E104"},
)
EMPLOYEES = Collection("employees", STAFF)
SHIFT_FILE = Collection("shifts", SHIFTS)


def _records() -> DataRecords:
    return DataRecords(
        [EMPLOYEES, SHIFT_FILE], readers={"employees": frozenset({"swap"}), "shifts": {"swap"}}
    )


def test_a_record_of_another_file_is_the_held_persons_own() -> None:
    shift = FieldSpec("shift_id", "text", "Id of their shift.")
    for person in STAFF:
        own = {s["shift_id"] for s in SHIFTS if s["employee_id"] == person["employee_id"]}
        drawn = set()
        for slot in range(8):
            sheet = SheetBuilder(f"case{slot}", "", _records(), slot=slot)
            sheet.hold(person)
            drawn.add(sheet.from_records(shift))
        if own:
            assert drawn <= own, (person["first_name"], drawn)
        else:  # nobody's own: the file is left whole (see test below for who is drawn)
            assert drawn


def test_the_signed_in_person_holds_a_record_in_the_skills_files() -> None:
    records = _records()
    drawn = {
        session_person(records, EMPLOYEES, {}, f"case{slot}", slot, "swap")["employee_id"]
        for slot in range(8)
    }
    # Grace (E103) has no shift: a swap case is never hers
    assert drawn == {"E101", "E102", "E104"}
    # a skill that reads no file of the person's ids deals everyone in turn
    every = {
        session_person(records, EMPLOYEES, {}, f"c{slot}", slot, "recipes")["employee_id"]
        for slot in range(8)
    }
    assert every == {"E101", "E102", "E103", "E104"}


def test_a_coworker_the_caller_names_is_another_person_of_the_file_with_their_id() -> None:
    name = FieldSpec("coworker_name", "text", "First name of the coworker.", (), ("first_name",))
    partner = FieldSpec("coworker_id", "text", "Partner number of the coworker, E###.")
    for slot in range(6):
        sheet = SheetBuilder(f"case{slot}", "", _records(), slot=slot)
        sheet.hold(STAFF[0])  # Maya, of store S-1
        said = sheet.from_records(name)
        coworker = next(p for p in STAFF if p["first_name"] == said)
        assert coworker is not STAFF[0]
        assert coworker["home_store"] == "S-1", said  # the one sharing most: the same store
        assert sheet.from_records(partner) == coworker["employee_id"]
        # the caller's own facts stay the caller's
        assert sheet.persona.name.startswith("Maya")


def test_a_record_the_held_person_points_at_is_drawn_first() -> None:
    stores = Collection(
        "stores", tuple({"store_id": f"S-{n}", "name": f"Store {n}"} for n in (1, 2, 3))
    )
    records = DataRecords([EMPLOYEES, stores])
    pickup = FieldSpec("pickup_store_id", "text", "Store for pickup, S-#.")
    for person in (STAFF[0], STAFF[3]):  # of S-1, of S-2
        drawn = set()
        for slot in range(6):
            sheet = SheetBuilder(f"case{slot}", "", records, slot=slot)
            sheet.hold(person)
            drawn.add(sheet.from_records(pickup))
        assert drawn == {person["home_store"]}, (person["first_name"], drawn)
