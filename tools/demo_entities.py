"""Hand-checked named entities (MUC-7 types) in the demo's English reference.

Each row: segment id, the entity's exact text in reference ``ref-1``, its type.
Every whole-word occurrence of the text in that segment is one entity. Read
against the 50 sentences by hand; ``build_demo.py`` refuses a row whose text
is not in its segment, so a change to the corpus cannot silently drop one.
"""

from __future__ import annotations

# Layer 1: the first annotator.
ANNOTATOR_1: list[tuple[str, str, str]] = [
    ("2", "Evald", "PERSON"),
    ("2", "Kuslap", "PERSON"),
    ("2", "Külaline", "ORGANIZATION"),
    ("3", "pro-Russian", "LOCATION"),
    ("4", "Georgian", "LOCATION"),
    ("4", "Irakli Okruashvili", "PERSON"),
    ("4", "Interpol", "ORGANIZATION"),
    ("5", "Georg", "PERSON"),
    ("5", "Morna", "PERSON"),
    ("6", "Nauru", "LOCATION"),
    ("6", "International Court", "ORGANIZATION"),
    ("7", "Järva County", "LOCATION"),
    ("7", "People’s Union of Estonia", "ORGANIZATION"),
    ("7", "Kaja Sepp", "PERSON"),
    ("7", "Vello Teor", "PERSON"),
    ("7", "Annika Aava", "PERSON"),
    ("8", "Labour Party", "ORGANIZATION"),
    ("8", "31%", "PERCENT"),
    ("9", "Jackson", "PERSON"),
    ("9", "James Brown", "PERSON"),
    ("12", "Afghanistan", "LOCATION"),
    ("13", "Estonia", "LOCATION"),
    ("13", "Tartu County Court", "ORGANIZATION"),
    ("13", "Valga", "LOCATION"),
    ("13", "Georg Trašanov", "PERSON"),
    ("14", "Germany", "LOCATION"),
    ("15", "6 June 1998", "DATE"),
    ("15", "National Assembly", "ORGANIZATION"),
    ("18", "Pertti", "PERSON"),
    ("18", "Tuukka", "PERSON"),
    ("18", "Heidi", "PERSON"),
    ("20", "Tallinn", "LOCATION"),
    ("26", "2003", "DATE"),
    ("26", "Michael", "PERSON"),
    ("27", "2014", "DATE"),
    ("27", "Los Angeles", "LOCATION"),
    ("27", "United States", "LOCATION"),
    ("28", "Portugal", "LOCATION"),
    ("28", "19th century", "DATE"),
    ("28", "Brazil", "LOCATION"),
    ("29", "Sigulda", "LOCATION"),
    ("29", "Pikk Hermann", "LOCATION"),
    ("29", "Viljandi", "LOCATION"),
    ("31", "Portugal", "LOCATION"),
    ("31", "1911", "DATE"),
    ("32", "Islamist State", "ORGANIZATION"),
    ("33", "2012", "DATE"),
    ("33", "Los Angeles", "LOCATION"),
    ("33", "United States", "LOCATION"),
    ("39", "Saara", "PERSON"),
    ("39", "Ursula", "PERSON"),
    ("39", "America", "LOCATION"),
    ("39", "Priit", "PERSON"),
    ("40", "Estonia", "LOCATION"),
    ("40", "Sweden", "LOCATION"),
    ("40", "1929", "DATE"),
    ("40", "Gustav V", "PERSON"),
    ("41", "Antti", "PERSON"),
    ("41", "Katariina Mäkelä", "PERSON"),
    ("41", "Isabella Holm", "PERSON"),
    ("43", "University of Tartu", "ORGANIZATION"),
    ("43", "Toomas Asser", "PERSON"),
    ("45", "Stuart Hampshire", "PERSON"),
    ("46", "Berthold Maack", "PERSON"),
    ("48", "Naan", "PERSON"),
    ("49", "19th century", "DATE"),
    ("49", "Royal Mint", "ORGANIZATION"),
    ("50", "Oran Celik", "PERSON"),
]

# The second annotator agrees except for these deliberate differences (the kind
# two people really disagree on: boundaries, types of nationality words and
# publications, a missed name, an extra date).
DROPPED_BY_2: set[tuple[str, str]] = {
    ("2", "Külaline"),     # a newspaper title: not annotated
    ("3", "pro-Russian"),  # a nationality adjective is not a LOCATION
    ("4", "Georgian"),
    ("18", "Heidi"),       # missed
}
RETYPED_BY_2: dict[tuple[str, str], str] = {
    ("29", "Pikk Hermann"): "ORGANIZATION",  # the tower read as an institution
    ("32", "Islamist State"): "LOCATION",
}
REPLACED_BY_2: dict[tuple[str, str], tuple[str, str]] = {
    # a wider span: the whole name of the court's board
    ("43", "University of Tartu"): ("University of Tartu Medical Research Board", "ORGANIZATION"),
    ("13", "Valga"): ("County Governor of Valga", "LOCATION"),
}
ADDED_BY_2: list[tuple[str, str, str]] = [
    ("27", "Golden Globe Awards", "ORGANIZATION"),  # an event, not an organization
    ("33", "Oscars", "ORGANIZATION"),
]

# Adjudication: in these segments the adjudicated layer takes annotator 2's
# decisions; everywhere else annotator 1's.
TAKE_B: set[str] = {"3", "4"}  # nationality adjectives are not entities
