// The deployer's glue: a procurement admin (采购管理系统) on Vue 3 and Element Plus in Simplified Chinese (Element
// Plus' zh-cn locale: pickers, ElMessageBox's 确定/取消, el-popconfirm, empty tables), over json-server's REST API
// under /api.
import { createApp } from 'vue';
import ElementPlus from 'element-plus';
import zhCn from 'element-plus/es/locale/lang/zh-cn';
import 'element-plus/dist/index.css';
import App from './App.vue';
import { router } from './router';

createApp(App).use(ElementPlus, { locale: zhCn }).use(router).mount('#app');
