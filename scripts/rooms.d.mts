export declare const SOURCE_ROOMS: string[];
export declare const TOOLING_ROOMS: string[];
