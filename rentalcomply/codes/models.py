"""The authorities' code tables as loaded: a small version row per table, and its codes."""

from __future__ import annotations

import peewee as pw

from rentalcomply.core import clock
from rentalcomply.core.models import BaseModel


class PoliceCodeTable(BaseModel):
    """One code table of an authority as loaded (`IT/comuni`, `ES/municipios`...): where it came
    from, when, and its `version`, which grows with every load. Every process reads this small
    row before using its copy of the table in memory and reloads the rows when it changed, so a
    refresh made anywhere (CLI, worker, another server) is used from the next filing on."""

    id = pw.CharField(primary_key=True, max_length=48)     # "<country>/<table>"
    country = pw.CharField(max_length=2)
    name = pw.CharField(max_length=32)      # comuni, stati, documenti, tipo_alloggiato...
    version = pw.IntegerField(default=1)
    source = pw.CharField(max_length=300)
    loaded_at = pw.DateTimeField(default=clock.utcnow)
    row_count = pw.IntegerField(default=0)


class PoliceCode(BaseModel):
    """One code of an authority's table, with the last day it is valid (None: in force). The
    authority's tables give no start of validity: a code is valid up to `valid_to`."""

    id = pw.AutoField()
    table = pw.ForeignKeyField(PoliceCodeTable, on_delete="CASCADE", column_name="table_id")
    code = pw.CharField(max_length=64)
    name = pw.CharField(max_length=300)
    province = pw.CharField(max_length=8, default="")
    valid_to = pw.DateField(null=True)

    class Meta:
        indexes = ((("table", "code"), False),)
