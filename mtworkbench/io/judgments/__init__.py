"""Human judgments read and written: score lines, protocol and ranking CSVs, MQM error
tables and MQM typology files."""
