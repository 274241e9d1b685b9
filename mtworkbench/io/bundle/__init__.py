"""The bundle file (``.mtwb.json``): loading and saving a project, its JSON checks, the lock
beside it, crash recovery, merging bundles and split judging packages."""
