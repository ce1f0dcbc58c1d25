/** `file://` URL of an absolute path (private). @module */
import { pathToFileURL } from "node:url";

/** The `file://` URL text of an absolute path. */
export const toFileUrl = (path: string): string => pathToFileURL(path).href;
