"""A property's default time zone, from its country.

A country with one time zone in the IANA database's `zone.tab` (Italy: Europe/Rome) gives it as the
default. A country with several zones (Spain: Madrid and the Canaries; Portugal: Lisbon and the
Azores; the United States...) has no default: a property there must name its `timezone`, since no
guess is right for all of it. Germany and Cyprus count as one zone (Europe/Berlin, Asia/Nicosia):
their other zones are enclaves that keep the same clock today.

The tables were generated from tzdata 2025b's zone.tab; a country missing from both (an unknown
code) has no default either.
"""

from __future__ import annotations

SINGLE_ZONE = {
    "AD": "Europe/Andorra", "AE": "Asia/Dubai", "AF": "Asia/Kabul", "AG": "America/Antigua", "AI":
    "America/Anguilla", "AL": "Europe/Tirane", "AM": "Asia/Yerevan", "AO": "Africa/Luanda", "AS":
    "Pacific/Pago_Pago", "AT": "Europe/Vienna", "AW": "America/Aruba", "AX": "Europe/Mariehamn",
    "AZ": "Asia/Baku", "BA": "Europe/Sarajevo", "BB": "America/Barbados", "BD": "Asia/Dhaka",
    "BE": "Europe/Brussels", "BF": "Africa/Ouagadougou", "BG": "Europe/Sofia", "BH":
    "Asia/Bahrain", "BI": "Africa/Bujumbura", "BJ": "Africa/Porto-Novo", "BL":
    "America/St_Barthelemy", "BM": "Atlantic/Bermuda", "BN": "Asia/Brunei", "BO":
    "America/La_Paz", "BQ": "America/Kralendijk", "BS": "America/Nassau", "BT": "Asia/Thimphu",
    "BW": "Africa/Gaborone", "BY": "Europe/Minsk", "BZ": "America/Belize", "CC": "Indian/Cocos",
    "CF": "Africa/Bangui", "CG": "Africa/Brazzaville", "CH": "Europe/Zurich", "CI":
    "Africa/Abidjan", "CK": "Pacific/Rarotonga", "CM": "Africa/Douala", "CO": "America/Bogota",
    "CR": "America/Costa_Rica", "CU": "America/Havana", "CV": "Atlantic/Cape_Verde", "CW":
    "America/Curacao", "CX": "Indian/Christmas", "CZ": "Europe/Prague", "DJ": "Africa/Djibouti",
    "DK": "Europe/Copenhagen", "DM": "America/Dominica", "DO": "America/Santo_Domingo", "DZ":
    "Africa/Algiers", "EE": "Europe/Tallinn", "EG": "Africa/Cairo", "EH": "Africa/El_Aaiun", "ER":
    "Africa/Asmara", "ET": "Africa/Addis_Ababa", "FI": "Europe/Helsinki", "FJ": "Pacific/Fiji",
    "FK": "Atlantic/Stanley", "FO": "Atlantic/Faroe", "FR": "Europe/Paris", "GA":
    "Africa/Libreville", "GB": "Europe/London", "GD": "America/Grenada", "GE": "Asia/Tbilisi",
    "GF": "America/Cayenne", "GG": "Europe/Guernsey", "GH": "Africa/Accra", "GI":
    "Europe/Gibraltar", "GM": "Africa/Banjul", "GN": "Africa/Conakry", "GP": "America/Guadeloupe",
    "GQ": "Africa/Malabo", "GR": "Europe/Athens", "GS": "Atlantic/South_Georgia", "GT":
    "America/Guatemala", "GU": "Pacific/Guam", "GW": "Africa/Bissau", "GY": "America/Guyana",
    "HK": "Asia/Hong_Kong", "HN": "America/Tegucigalpa", "HR": "Europe/Zagreb", "HT":
    "America/Port-au-Prince", "HU": "Europe/Budapest", "IE": "Europe/Dublin", "IL":
    "Asia/Jerusalem", "IM": "Europe/Isle_of_Man", "IN": "Asia/Kolkata", "IO": "Indian/Chagos",
    "IQ": "Asia/Baghdad", "IR": "Asia/Tehran", "IS": "Atlantic/Reykjavik", "IT": "Europe/Rome",
    "JE": "Europe/Jersey", "JM": "America/Jamaica", "JO": "Asia/Amman", "JP": "Asia/Tokyo", "KE":
    "Africa/Nairobi", "KG": "Asia/Bishkek", "KH": "Asia/Phnom_Penh", "KM": "Indian/Comoro", "KN":
    "America/St_Kitts", "KP": "Asia/Pyongyang", "KR": "Asia/Seoul", "KW": "Asia/Kuwait", "KY":
    "America/Cayman", "LA": "Asia/Vientiane", "LB": "Asia/Beirut", "LC": "America/St_Lucia", "LI":
    "Europe/Vaduz", "LK": "Asia/Colombo", "LR": "Africa/Monrovia", "LS": "Africa/Maseru", "LT":
    "Europe/Vilnius", "LU": "Europe/Luxembourg", "LV": "Europe/Riga", "LY": "Africa/Tripoli",
    "MA": "Africa/Casablanca", "MC": "Europe/Monaco", "MD": "Europe/Chisinau", "ME":
    "Europe/Podgorica", "MF": "America/Marigot", "MG": "Indian/Antananarivo", "MK":
    "Europe/Skopje", "ML": "Africa/Bamako", "MM": "Asia/Yangon", "MO": "Asia/Macau", "MP":
    "Pacific/Saipan", "MQ": "America/Martinique", "MR": "Africa/Nouakchott", "MS":
    "America/Montserrat", "MT": "Europe/Malta", "MU": "Indian/Mauritius", "MV": "Indian/Maldives",
    "MW": "Africa/Blantyre", "MZ": "Africa/Maputo", "NA": "Africa/Windhoek", "NC":
    "Pacific/Noumea", "NE": "Africa/Niamey", "NF": "Pacific/Norfolk", "NG": "Africa/Lagos", "NI":
    "America/Managua", "NL": "Europe/Amsterdam", "NO": "Europe/Oslo", "NP": "Asia/Kathmandu",
    "NR": "Pacific/Nauru", "NU": "Pacific/Niue", "OM": "Asia/Muscat", "PA": "America/Panama",
    "PE": "America/Lima", "PH": "Asia/Manila", "PK": "Asia/Karachi", "PL": "Europe/Warsaw", "PM":
    "America/Miquelon", "PN": "Pacific/Pitcairn", "PR": "America/Puerto_Rico", "PW":
    "Pacific/Palau", "PY": "America/Asuncion", "QA": "Asia/Qatar", "RE": "Indian/Reunion", "RO":
    "Europe/Bucharest", "RS": "Europe/Belgrade", "RW": "Africa/Kigali", "SA": "Asia/Riyadh", "SB":
    "Pacific/Guadalcanal", "SC": "Indian/Mahe", "SD": "Africa/Khartoum", "SE": "Europe/Stockholm",
    "SG": "Asia/Singapore", "SH": "Atlantic/St_Helena", "SI": "Europe/Ljubljana", "SJ":
    "Arctic/Longyearbyen", "SK": "Europe/Bratislava", "SL": "Africa/Freetown", "SM":
    "Europe/San_Marino", "SN": "Africa/Dakar", "SO": "Africa/Mogadishu", "SR":
    "America/Paramaribo", "SS": "Africa/Juba", "ST": "Africa/Sao_Tome", "SV":
    "America/El_Salvador", "SX": "America/Lower_Princes", "SY": "Asia/Damascus", "SZ":
    "Africa/Mbabane", "TC": "America/Grand_Turk", "TD": "Africa/Ndjamena", "TF":
    "Indian/Kerguelen", "TG": "Africa/Lome", "TH": "Asia/Bangkok", "TJ": "Asia/Dushanbe", "TK":
    "Pacific/Fakaofo", "TL": "Asia/Dili", "TM": "Asia/Ashgabat", "TN": "Africa/Tunis", "TO":
    "Pacific/Tongatapu", "TR": "Europe/Istanbul", "TT": "America/Port_of_Spain", "TV":
    "Pacific/Funafuti", "TW": "Asia/Taipei", "TZ": "Africa/Dar_es_Salaam", "UG": "Africa/Kampala",
    "UY": "America/Montevideo", "VA": "Europe/Vatican", "VC": "America/St_Vincent", "VE":
    "America/Caracas", "VG": "America/Tortola", "VI": "America/St_Thomas", "VN":
    "Asia/Ho_Chi_Minh", "VU": "Pacific/Efate", "WF": "Pacific/Wallis", "WS": "Pacific/Apia", "YE":
    "Asia/Aden", "YT": "Indian/Mayotte", "ZA": "Africa/Johannesburg", "ZM": "Africa/Lusaka", "ZW":
    "Africa/Harare",
    "DE": "Europe/Berlin", "CY": "Asia/Nicosia",
}

SEVERAL_ZONES = {
    "AQ": ("Antarctica/McMurdo", "Antarctica/Casey", "Antarctica/Davis", "Antarctica/DumontDUrville", "Antarctica/Mawson", "Antarctica/Palmer", "Antarctica/Rothera", "Antarctica/Syowa", "Antarctica/Troll", "Antarctica/Vostok",),
    "AR": ("America/Argentina/Buenos_Aires", "America/Argentina/Cordoba", "America/Argentina/Salta", "America/Argentina/Jujuy", "America/Argentina/Tucuman", "America/Argentina/Catamarca", "America/Argentina/La_Rioja", "America/Argentina/San_Juan", "America/Argentina/Mendoza", "America/Argentina/San_Luis", "America/Argentina/Rio_Gallegos", "America/Argentina/Ushuaia",),
    "AU": ("Australia/Lord_Howe", "Antarctica/Macquarie", "Australia/Hobart", "Australia/Melbourne", "Australia/Sydney", "Australia/Broken_Hill", "Australia/Brisbane", "Australia/Lindeman", "Australia/Adelaide", "Australia/Darwin", "Australia/Perth", "Australia/Eucla",),
    "BR": ("America/Noronha", "America/Belem", "America/Fortaleza", "America/Recife", "America/Araguaina", "America/Maceio", "America/Bahia", "America/Sao_Paulo", "America/Campo_Grande", "America/Cuiaba", "America/Santarem", "America/Porto_Velho", "America/Boa_Vista", "America/Manaus", "America/Eirunepe", "America/Rio_Branco",),
    "CA": ("America/St_Johns", "America/Halifax", "America/Glace_Bay", "America/Moncton", "America/Goose_Bay", "America/Blanc-Sablon", "America/Toronto", "America/Iqaluit", "America/Atikokan", "America/Winnipeg", "America/Resolute", "America/Rankin_Inlet", "America/Regina", "America/Swift_Current", "America/Edmonton", "America/Cambridge_Bay", "America/Inuvik", "America/Creston", "America/Dawson_Creek", "America/Fort_Nelson", "America/Whitehorse", "America/Dawson", "America/Vancouver",),
    "CD": ("Africa/Kinshasa", "Africa/Lubumbashi",),
    "CL": ("America/Santiago", "America/Coyhaique", "America/Punta_Arenas", "Pacific/Easter",),
    "CN": ("Asia/Shanghai", "Asia/Urumqi",),
    "EC": ("America/Guayaquil", "Pacific/Galapagos",),
    "ES": ("Europe/Madrid", "Africa/Ceuta", "Atlantic/Canary",),
    "FM": ("Pacific/Chuuk", "Pacific/Pohnpei", "Pacific/Kosrae",),
    "GL": ("America/Nuuk", "America/Danmarkshavn", "America/Scoresbysund", "America/Thule",),
    "ID": ("Asia/Jakarta", "Asia/Pontianak", "Asia/Makassar", "Asia/Jayapura",),
    "KI": ("Pacific/Tarawa", "Pacific/Kanton", "Pacific/Kiritimati",),
    "KZ": ("Asia/Almaty", "Asia/Qyzylorda", "Asia/Qostanay", "Asia/Aqtobe", "Asia/Aqtau", "Asia/Atyrau", "Asia/Oral",),
    "MH": ("Pacific/Majuro", "Pacific/Kwajalein",),
    "MN": ("Asia/Ulaanbaatar", "Asia/Hovd",),
    "MX": ("America/Mexico_City", "America/Cancun", "America/Merida", "America/Monterrey", "America/Matamoros", "America/Chihuahua", "America/Ciudad_Juarez", "America/Ojinaga", "America/Mazatlan", "America/Bahia_Banderas", "America/Hermosillo", "America/Tijuana",),
    "MY": ("Asia/Kuala_Lumpur", "Asia/Kuching",),
    "NZ": ("Pacific/Auckland", "Pacific/Chatham",),
    "PF": ("Pacific/Tahiti", "Pacific/Marquesas", "Pacific/Gambier",),
    "PG": ("Pacific/Port_Moresby", "Pacific/Bougainville",),
    "PS": ("Asia/Gaza", "Asia/Hebron",),
    "PT": ("Europe/Lisbon", "Atlantic/Madeira", "Atlantic/Azores",),
    "RU": ("Europe/Kaliningrad", "Europe/Moscow", "Europe/Kirov", "Europe/Volgograd", "Europe/Astrakhan", "Europe/Saratov", "Europe/Ulyanovsk", "Europe/Samara", "Asia/Yekaterinburg", "Asia/Omsk", "Asia/Novosibirsk", "Asia/Barnaul", "Asia/Tomsk", "Asia/Novokuznetsk", "Asia/Krasnoyarsk", "Asia/Irkutsk", "Asia/Chita", "Asia/Yakutsk", "Asia/Khandyga", "Asia/Vladivostok", "Asia/Ust-Nera", "Asia/Magadan", "Asia/Sakhalin", "Asia/Srednekolymsk", "Asia/Kamchatka", "Asia/Anadyr",),
    "UA": ("Europe/Simferopol", "Europe/Kyiv",),
    "UM": ("Pacific/Midway", "Pacific/Wake",),
    "US": ("America/New_York", "America/Detroit", "America/Kentucky/Louisville", "America/Kentucky/Monticello", "America/Indiana/Indianapolis", "America/Indiana/Vincennes", "America/Indiana/Winamac", "America/Indiana/Marengo", "America/Indiana/Petersburg", "America/Indiana/Vevay", "America/Chicago", "America/Indiana/Tell_City", "America/Indiana/Knox", "America/Menominee", "America/North_Dakota/Center", "America/North_Dakota/New_Salem", "America/North_Dakota/Beulah", "America/Denver", "America/Boise", "America/Phoenix", "America/Los_Angeles", "America/Anchorage", "America/Juneau", "America/Sitka", "America/Metlakatla", "America/Yakutat", "America/Nome", "America/Adak", "Pacific/Honolulu",),
    "UZ": ("Asia/Samarkand", "Asia/Tashkent",),
}


def default_timezone(country: str) -> str | None:
    """The country's only time zone, or None when it has several (or is unknown)."""
    return SINGLE_ZONE.get(country)


def zones_of(country: str) -> tuple[str, ...]:
    """The zones of a country with several, most populous first; () otherwise."""
    return SEVERAL_ZONES.get(country, ())


def is_known_country(country: str) -> bool:
    """Whether the IANA database knows the country: zone.tab lists every ISO 3166-1 country."""
    return country in SINGLE_ZONE or country in SEVERAL_ZONES
