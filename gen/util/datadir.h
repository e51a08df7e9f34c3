/* Where ddigen's data files (templates) are: beside the executable, so an
 * installed tree can move and no build-tree path is baked into the binary. */
#ifndef DDIGEN_DATADIR_H
#define DDIGEN_DATADIR_H

/* <dir of the executable>/../share/ddigen/<what> (the install layout; the
 * build tree mirrors it with a link to the source folder). The string is
 * static; falls back to "share/ddigen/<what>" when the executable's path
 * cannot be read. */
const char *ddigen_data_dir(const char *what);

#endif
