/* All-or-nothing output folders: a command that writes several files into
 * OUT (generate, emit) builds the whole set in a staging folder beside OUT
 * and switches it in with one atomic exchange of the two folders, so that
 * readers never see old and new files mixed, and a failed or killed run
 * leaves OUT as it was. */
#ifndef DDIGEN_OUTSET_H
#define DDIGEN_OUTSET_H

struct output_set {
    char *target;  /* OUT with its symlinks followed: the folder replaced */
    char *staging; /* DIR/.NAME.ddigen-new.PID beside it, where the run writes */
    int had_target;
};

/* Makes the staging folder, a copy of OUT made of hard links (so files the
 * run does not rewrite, and files it rewrites with the same bytes, keep
 * their inode and mtime), after removing the debris of killed runs and
 * restoring an OUT a killed switch left aside. 0, or -1 (reported). */
int output_set_begin(struct output_set *s, const char *out_dir);

/* The same with an empty staging folder: for a set made whole each run
 * (the report's site), where nothing of OUT is kept and a page of an
 * earlier run (a record since removed) must not survive. */
int output_set_begin_empty(struct output_set *s, const char *out_dir);

/* Puts every file written into the staging folder on the disk (one
 * syncfs), for sets written with ddigen_write_staged. 0, or -1 (reported). */
int output_set_sync(struct output_set *s);

/* Switches the staging folder in: renameat2(RENAME_EXCHANGE), or where the
 * file system lacks it two renames, then removes the old set. Refuses (and
 * aborts) when an error was reported during the run. 0, or -1 (reported). */
int output_set_commit(struct output_set *s);

/* Removes the staging folder; OUT is untouched. Safe after commit. */
void output_set_abort(struct output_set *s);

#endif
