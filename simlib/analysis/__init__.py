"""Analysis over the lake: the SQL/Polars pipeline, ad-hoc SQL, and the report."""
