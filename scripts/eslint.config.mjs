import { houseConfig } from '../eslint.house.mjs';

export default houseConfig(import.meta.dirname);
